! EXPECT: potential-deadlock  NP: 2  MODE: strict
! Checks: potential_deadlock_send_send_small.c in an mpif.h program: ranks 0
! and 1 both MPI_SEND four integers to each other, then MPI_RECV.
!
! Why a warning: MPI buffers the small messages, so the program completes;
! with MPI_SSEND semantics (or a message too large to buffer) each send would
! wait for a receive the peer posts only after its own send returns.
program send_send_small
  implicit none
  include 'mpif.h'
  integer :: rank, ierr, other, out(4), in(4)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  other = 1 - rank
  out = rank
  ! BUG: both ranks send first; only MPI's buffering saves the exchange
  call MPI_SEND(out, 4, MPI_INTEGER, other, 1, MPI_COMM_WORLD, ierr)
  call MPI_RECV(in, 4, MPI_INTEGER, other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (in(1) /= other) stop 1
  call MPI_FINALIZE(ierr)
end program send_send_small
