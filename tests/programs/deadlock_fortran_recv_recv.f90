! EXPECT: deadlock  NP: 2
! Checks: the recv-recv deadlock in an mpif.h program: ranks 0 and 1 both
! MPI_RECV from each other before they send. The report names MPI_RECV (as
! the program wrote it) at this file's line for both ranks.
!
! Why it is an error: each blocking receive waits for a send that the other
! rank makes only after its own receive returns. Run plainly, it hangs.
program recv_recv
  implicit none
  include 'mpif.h'
  integer :: rank, ierr, buf, other
  integer :: status(MPI_STATUS_SIZE)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  other = 1 - rank
  ! BUG: both ranks receive first
  call MPI_RECV(buf, 1, MPI_INTEGER, other, 0, MPI_COMM_WORLD, status, ierr)
  call MPI_SEND(rank, 1, MPI_INTEGER, other, 0, MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
end program recv_recv
