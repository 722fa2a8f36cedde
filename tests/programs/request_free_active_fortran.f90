! EXPECT: request-free-active  NP: 2  RANKS: 0
! Checks: request_free_active_isend.c's pattern in an mpif.h program: rank
! 0 starts an MPI_ISEND, frees its request at once and takes rank 1's reply
! as the sign that the send is done.
!
! Why a warning: the standard allows freeing an active request (MPI-4.0
! sec. 3.7.3), but the program can no longer learn when its send buffer may
! be reused, and an error of the send can only end the job.
program free_active
  implicit none
  include 'mpif.h'
  integer :: rank, ierr, req, x(4), y(4), reply(1)
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  x = (/ 1, 2, 3, 4 /)
  reply = 0
  if (rank == 0) then
    call MPI_ISEND(x, 4, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, req, ierr)
    call MPI_REQUEST_FREE(req, ierr)     ! BUG: the send may still be active
    if (req /= MPI_REQUEST_NULL) stop 1
    call MPI_RECV(reply, 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  else if (rank == 1) then
    call MPI_RECV(y, 4, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    reply(1) = y(4)
    call MPI_SEND(reply, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierr)
  end if
  call MPI_FINALIZE(ierr)
end program free_active
