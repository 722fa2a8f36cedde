! EXPECT: OK  NP: 3
! Checks: a correct `use mpi` program whose handles partly come from calls
! the checker has no converting Fortran entry point for (docs/fortran.md):
! a user reduction (MPI_Op_create takes a Fortran function), a keyval with
! attributes (MPI_Comm_create_keyval, MPI_Comm_set_attr / get_attr). The
! library runs those unseen on Open MPI and in MPICH's mpi_f08; their
! handles, used and freed in converted calls (MPI_Allreduce, MPI_Op_free,
! MPI_Comm_free_keyval), must not turn into findings. MPI_Alltoallw's
! datatype arrays (one entry per process) are converted: no finding either.
module ops
  use mpi
contains
  subroutine imax(invec, inoutvec, n, dtype)
    integer :: n, dtype, i
    integer :: invec(n), inoutvec(n)
    if (dtype == MPI_DATATYPE_NULL) stop 9
    do i = 1, n
      inoutvec(i) = max(invec(i), inoutvec(i))
    end do
  end subroutine imax
end module ops

program unwrapped
  use mpi
  use ops
  implicit none
  integer :: ierr, rank, nprocs, op, key, i, got
  integer :: sbuf(8), rbuf(8), counts(8), displs(8), types(8)
  integer(kind=MPI_ADDRESS_KIND) :: val
  logical :: flag
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  call MPI_Op_create(imax, .true., op, ierr)
  call MPI_Allreduce(rank, got, 1, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  if (got /= nprocs - 1) stop 1
  call MPI_Op_free(op, ierr)

  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key, val, ierr)
  val = 42
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val, ierr)
  val = 0
  call MPI_Comm_get_attr(MPI_COMM_WORLD, key, val, flag, ierr)
  if (.not. flag .or. val /= 42) stop 2
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  call MPI_Comm_free_keyval(key, ierr)

  do i = 1, nprocs
    sbuf(i) = 10 * rank + i - 1
    counts(i) = 1
    displs(i) = 4 * (i - 1)
    types(i) = MPI_INTEGER
  end do
  call MPI_Alltoallw(sbuf, counts, displs, types, rbuf, counts, displs, types, MPI_COMM_WORLD, ierr)
  do i = 1, nprocs
    if (rbuf(i) /= 10 * (i - 1) + rank) stop 3
  end do

  call MPI_Finalize(ierr)
end program unwrapped
