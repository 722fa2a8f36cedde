! EXPECT: OK  NP: 3
! Checks: deadlock_ok_fortran_f08.f90 written with `use mpi` (INTEGER
! handles, INTEGER status arrays, an ierror argument everywhere): no finding.
program ok_mpi
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, left, right, sbuf, rbuf, total, i, idx, cnt, rlen
  integer :: vals(3), got(3)
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE,2)
  integer :: reqs(2)
  integer :: dup, half
  integer :: triple
  character(len=MPI_MAX_OBJECT_NAME) :: name
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)
  sbuf = rank
  call MPI_Sendrecv(sbuf, 1, MPI_INTEGER, right, 7, rbuf, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, st, ierr)
  if (rbuf /= left .or. st(MPI_SOURCE) /= left .or. st(MPI_TAG) /= 7) error stop 1
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= nprocs*(nprocs-1)/2) error stop 2
  total = rank
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (total /= nprocs-1) error stop 3
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, sts, ierr)
  if (sts(MPI_SOURCE,1) /= left .or. reqs(1) /= MPI_REQUEST_NULL) error stop 4
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, reqs(2), ierr)
  do i = 1, 2
    call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE, ierr)
    ! 1 or 2; MPICH before 4.1 returns 0 or 1 from mpi_f08 (its issue 6270)
    if (idx < 0 .or. idx > 2) error stop 5
  end do
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_set_name(dup, "my dup   ", ierr)
  call MPI_Comm_get_name(dup, name, rlen, ierr)
  if (name /= "my dup" .or. rlen /= 6) error stop 6
  call MPI_Comm_split(dup, mod(rank, 2), rank, half, ierr)
  call MPI_Barrier(half, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Type_contiguous(3, MPI_INTEGER, triple, ierr)
  call MPI_Type_commit(triple, ierr)
  vals = [rank, rank, rank]
  if (rank == 0) then
    call MPI_Send(vals, 1, triple, 1, 3, dup, ierr)
  else if (rank == 1) then
    call MPI_Probe(0, 3, dup, st, ierr)
    call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
    if (cnt /= 3) error stop 7
    call MPI_Recv(got, 3, MPI_INTEGER, 0, 3, dup, MPI_STATUS_IGNORE, ierr)
    if (any(got /= 0)) error stop 8
  end if
  call MPI_Type_free(triple, ierr)
  call MPI_Ibarrier(dup, reqs(1), ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Finalize(ierr)
end program ok_mpi
