! tests/fortran.sh: rank 1 stops after an MPI_BARRIER without calling
! MPI_FINALIZE: the rank-exit finding names its last call as Fortran does.
program exit_early
  use mpi
  implicit none
  integer :: ierr, rank
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 1) stop 4
  call MPI_Finalize(ierr)
end program exit_early
