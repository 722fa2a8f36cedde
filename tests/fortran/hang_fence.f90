! tests/fortran.sh: rank 0 calls MPI_WIN_FENCE, then sends; rank 1 never
! calls the fence and waits in MPI_RECV (hang_win_fence.c in Fortran): the
! launcher's hang report names both calls as Fortran does.
program hang_fence
  use mpi
  implicit none
  integer :: ierr, rank, win, buf(4)
  integer(kind=MPI_ADDRESS_KIND) :: winsize
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  winsize = 16
  call MPI_Win_create(buf, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  if (rank == 0) then
    call MPI_Win_fence(0, win, ierr)
    call MPI_Send(buf, 1, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierr)
  else
    call MPI_Recv(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  call MPI_Win_free(win, ierr)
  call MPI_Finalize(ierr)
end program hang_fence
