! The Fortran half of tests/fortran.sh's mixed program: MPI started from
! Fortran, a ring message sent as MPI_INTEGER that the C half receives as
! MPI_INT, and one communicator duplicated here and one in C, neither freed.
program mixed
  use mpi
  use iso_c_binding
  implicit none
  interface
    subroutine c_half(fcomm, expect) bind(C, name="c_half")
      import :: c_int
      integer(c_int), value :: fcomm, expect
    end subroutine c_half
  end interface
  integer :: ierr, rank, nprocs, copy, val, req
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, copy, ierr)            ! FORTRAN-LEAK
  val = 100 + rank
  call MPI_Isend(val, 1, MPI_INTEGER, mod(rank + 1, nprocs), 4, copy, req, ierr)
  call c_half(copy, 100 + mod(rank - 1 + nprocs, nprocs))
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Finalize(ierr)
end program mixed
