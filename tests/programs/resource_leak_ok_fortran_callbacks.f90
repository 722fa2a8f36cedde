! EXPECT: OK  NP: 2
! Checks: user callbacks registered from Fortran are called by MPI with
! Fortran's arguments, also under the checker: a generalized request's
! query, free and cancel functions (MPI_GREQUEST_START), and a keyval's
! copy and delete functions (MPI_COMM_CREATE_KEYVAL), each checking the
! values it gets. With MPICH the C functions behind the Fortran binding are
! wrapped: a C trampoline in place of a Fortran callback would misread
! them (an MPI error, or wrong values). No finding.
module callbacks
  use mpi
  implicit none
  integer :: freed = 0, copied = 0, deleted = 0
contains
  subroutine query_fn(extra, status, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierr
    if (extra /= 7) stop 11
    status(MPI_SOURCE) = MPI_UNDEFINED
    status(MPI_TAG) = MPI_UNDEFINED
    call MPI_Status_set_cancelled(status, .false., ierr)
    call MPI_Status_set_elements(status, MPI_BYTE, 0, ierr)
    ierr = MPI_SUCCESS
  end subroutine query_fn
  subroutine free_fn(extra, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierr
    if (extra /= 7) stop 12
    freed = freed + 1
    ierr = MPI_SUCCESS
  end subroutine free_fn
  subroutine cancel_fn(extra, complete, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierr
    ierr = MPI_SUCCESS
  end subroutine cancel_fn
  subroutine copy_fn(comm, keyval, extra, value_in, value_out, flag, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, value_in, value_out
    logical :: flag
    if (extra /= 5 .or. value_in /= 42) stop 13
    value_out = value_in + 1
    flag = .true.
    copied = copied + 1
    ierr = MPI_SUCCESS
  end subroutine copy_fn
  subroutine delete_fn(comm, keyval, value, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: value, extra
    if (extra /= 5 .or. (value /= 42 .and. value /= 43)) stop 14
    deleted = deleted + 1
    ierr = MPI_SUCCESS
  end subroutine delete_fn
end module callbacks

program callbacks_from_fortran
  use mpi
  use callbacks
  implicit none
  integer :: ierr, request, key, copy
  integer(kind=MPI_ADDRESS_KIND) :: extra, val
  logical :: flag
  call MPI_Init(ierr)

  extra = 7
  call MPI_Grequest_start(query_fn, free_fn, cancel_fn, extra, request, ierr)
  call MPI_Test(request, flag, MPI_STATUS_IGNORE, ierr)
  if (flag) stop 1
  call MPI_Grequest_complete(request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  if (freed /= 1 .or. request /= MPI_REQUEST_NULL) stop 2

  extra = 5
  call MPI_Comm_create_keyval(copy_fn, delete_fn, key, extra, ierr)
  val = 42
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, val, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, copy, ierr)
  call MPI_Comm_get_attr(copy, key, val, flag, ierr)
  if (copied /= 1 .or. .not. flag .or. val /= 43) stop 3
  call MPI_Comm_free(copy, ierr)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  if (deleted /= 2) stop 4
  call MPI_Comm_free_keyval(key, ierr)
  call MPI_Finalize(ierr)
end program callbacks_from_fortran
