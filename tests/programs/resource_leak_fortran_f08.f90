! EXPECT: resource-leak  NP: 2
! Checks: a `use mpi_f08` program that duplicates MPI_COMM_WORLD and never
! frees the copy: the leak is reported with the MPI_COMM_DUP call that made
! it, at this file's line (the communicator handle came back to Fortran
! through the checker's conversion and was tracked).
program comm_leak
  use mpi_f08
  implicit none
  type(MPI_Comm) :: copy
  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, copy)     ! BUG: never freed
  call MPI_Barrier(copy)
  call MPI_Finalize()
end program comm_leak
