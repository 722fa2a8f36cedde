! EXPECT: deadlock  NP: 2  MODE: strict
! Checks: the send-send exchange in a `use mpi_f08` program: ranks 0 and 1
! both MPI_Send 4 MiB to each other, then MPI_Recv.
!
! Why it is an error: a standard send may wait until the matching receive is
! posted (MPI-4.0 sec. 3.4); no MPI buffers 4 MiB eagerly, so each MPI_Send
! waits for a receive the peer posts only after its own send returns. Run
! plainly, the program hangs.
program send_send
  use mpi_f08
  implicit none
  integer, parameter :: n = 1048576
  integer :: rank, other
  integer, allocatable :: out(:), in(:)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  other = 1 - rank
  allocate(out(n), in(n))
  out = rank
  ! BUG: both ranks send a rendezvous-sized message first
  call MPI_Send(out, n, MPI_INTEGER, other, 2, MPI_COMM_WORLD)
  call MPI_Recv(in, n, MPI_INTEGER, other, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Finalize()
end program send_send
