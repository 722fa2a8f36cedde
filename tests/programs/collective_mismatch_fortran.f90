! EXPECT: collective-mismatch  NP: 3
! Checks: a `use mpi` program whose ranks disagree on the root of an
! MPI_BCAST: ranks 0 and 1 name root 0, rank 2 names root 2.
!
! Why it is an error: every process of the communicator must give the same
! root (MPI-4.0 sec. 6.4). Run plainly, the outcome depends on the library:
! wrong data or a hang.
program bcast_root
  use mpi
  implicit none
  integer :: rank, ierr, root, val
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  root = 0
  if (rank == 2) root = 2      ! BUG: another root
  val = rank
  call MPI_Bcast(val, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program bcast_root
