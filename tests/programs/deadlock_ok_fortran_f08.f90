! EXPECT: OK  NP: 3
! Checks: a correct `use mpi_f08` program whose calls need every kind of
! argument conversion of the Fortran entry points (handles, statuses and
! arrays of them, requests made and completed, strings in and out,
! MPI_IN_PLACE, MPI_STATUS_IGNORE, the index of MPI_Waitany): a ring with
! MPI_Sendrecv and MPI_Allreduce, nonblocking pairs, a duplicated and a split
! communicator, a derived datatype, MPI_Probe and MPI_Get_count, MPI_Ibarrier.
! Each result is checked by the program itself (ERROR STOP): no finding, and
! what MPI returns is unchanged under the checker.
program ok_f08
  use mpi_f08
  implicit none
  integer :: rank, nprocs, left, right, sbuf, rbuf, total, i, idx, cnt, rlen
  integer :: vals(3), got(3)
  type(MPI_Status) :: st, sts(2)
  type(MPI_Request) :: reqs(2)
  type(MPI_Comm) :: dup, half
  type(MPI_Datatype) :: triple
  character(len=MPI_MAX_OBJECT_NAME) :: name
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)
  sbuf = rank
  call MPI_Sendrecv(sbuf, 1, MPI_INTEGER, right, 7, rbuf, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, st)
  if (rbuf /= left .or. st%MPI_SOURCE /= left .or. st%MPI_TAG /= 7) error stop 1
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total /= nprocs*(nprocs-1)/2) error stop 2
  total = rank
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  if (total /= nprocs-1) error stop 3
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, sts)
  if (sts(1)%MPI_SOURCE /= left .or. reqs(1) /= MPI_REQUEST_NULL) error stop 4
  call MPI_Irecv(rbuf, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, reqs(2))
  do i = 1, 2
    call MPI_Waitany(2, reqs, idx, MPI_STATUS_IGNORE)
    ! 1 or 2; MPICH before 4.1 returns 0 or 1 from mpi_f08 (its issue 6270)
    if (idx < 0 .or. idx > 2) error stop 5
  end do
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_name(dup, "my dup   ")
  call MPI_Comm_get_name(dup, name, rlen)
  if (name /= "my dup" .or. rlen /= 6) error stop 6
  call MPI_Comm_split(dup, mod(rank, 2), rank, half)
  call MPI_Barrier(half)
  call MPI_Comm_free(half)
  call MPI_Type_contiguous(3, MPI_INTEGER, triple)
  call MPI_Type_commit(triple)
  vals = [rank, rank, rank]
  if (rank == 0) then
    call MPI_Send(vals, 1, triple, 1, 3, dup)
  else if (rank == 1) then
    call MPI_Probe(0, 3, dup, st)
    call MPI_Get_count(st, MPI_INTEGER, cnt)
    if (cnt /= 3) error stop 7
    call MPI_Recv(got, 3, MPI_INTEGER, 0, 3, dup, MPI_STATUS_IGNORE)
    if (any(got /= 0)) error stop 8
  end if
  call MPI_Type_free(triple)
  call MPI_Ibarrier(dup, reqs(1))
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call MPI_Comm_free(dup)
  call MPI_Finalize()
end program ok_f08
