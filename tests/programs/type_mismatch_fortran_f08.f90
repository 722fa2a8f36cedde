! EXPECT: type-mismatch  NP: 2
! Checks: a `use mpi_f08` program that sends MPI_INTEGER and receives
! MPI_DOUBLE_PRECISION (8 integers into 4 doubles: the byte counts agree,
! so MPI reports nothing).
!
! Why it is an error: the type signatures of a send and its receive must
! match (MPI-4.0 sec. 3.3.1); the doubles get the integers' bits.
program int_as_double
  use mpi_f08
  implicit none
  integer :: rank, ivals(8)
  double precision :: dvals(4)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  if (rank == 0) then
    ivals = 7
    call MPI_Send(ivals, 8, MPI_INTEGER, 1, 5, MPI_COMM_WORLD)
  else if (rank == 1) then
    ! BUG: the sender sends MPI_INTEGER
    call MPI_Recv(dvals, 4, MPI_DOUBLE_PRECISION, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  end if
  call MPI_Finalize()
end program int_as_double
