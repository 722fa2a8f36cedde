! EXPECT: OK  NP: 4
! Checks: a correct mpif.h program (the INCLUDE file, no module: nothing
! checks its arguments at compile time) using the rest of the Fortran
! argument conversions: persistent requests with MPI_Startall, the 1-based
! indices of MPI_Waitsome and MPI_Testany, MPI_STATUSES_IGNORE, a struct
! datatype of absolute addresses sent from MPI_BOTTOM, a Cartesian
! communicator (LOGICAL periods), groups (MPI_Group_range_incl's ranges),
! MPI_IN_PLACE at a reduction's root, info strings in and out (blanks
! around a key dropped; a value left as it was when the key is missing),
! MPI_Get_processor_name, and MPI_Ialltoallw (its converted datatype
! arrays live only during the call: the checker must start it at once). Each result is checked by the program (STOP):
! no finding, and what MPI returns is unchanged under the checker.
program ok_mpif
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, i, outc, idx, left, right, rlen, sum_, nkeys
  integer :: sbuf, rbuf(2), inds(2), reqs(2), stats(MPI_STATUS_SIZE, 2)
  integer :: cart, dims(1), coords(1), src, dst, world_group, even_group, even_comm
  integer :: ranges(3, 1), stype, blens(2), types(2), info, a, b, r(2)
  integer :: wsend(4), wrecv(4), wcounts(4), wdispls(4), wtypes(4), wreq
  integer(kind=MPI_ADDRESS_KIND) :: disps(2)
  logical :: periods(1), flag
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=32) :: value

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)

  ! persistent requests, started together, completed by MPI_Waitsome
  sbuf = rank
  call MPI_RECV_INIT(rbuf(1), 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_SEND_INIT(sbuf, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, reqs(2), ierr)
  do i = 1, 2
    call MPI_STARTALL(2, reqs, ierr)
    outc = 0
    do while (outc == 0 .or. outc == 1)
      call MPI_WAITSOME(2, reqs, outc, inds, stats, ierr)
      if (outc /= MPI_UNDEFINED) then
        if (any(inds(1:outc) < 1) .or. any(inds(1:outc) > 2)) stop 1
      end if
      if (outc == 2 .or. outc == MPI_UNDEFINED) exit
      call MPI_WAIT(reqs(3 - inds(1)), MPI_STATUS_IGNORE, ierr)
      exit
    end do
    if (rbuf(1) /= left) stop 2
  end do
  call MPI_REQUEST_FREE(reqs(1), ierr)
  call MPI_REQUEST_FREE(reqs(2), ierr)

  ! MPI_Testany until both complete
  call MPI_IRECV(rbuf(2), 1, MPI_INTEGER, left, 2, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_ISEND(sbuf, 1, MPI_INTEGER, right, 2, MPI_COMM_WORLD, reqs(2), ierr)
  i = 0
  do while (i < 2)
    call MPI_TESTANY(2, reqs, idx, flag, MPI_STATUS_IGNORE, ierr)
    if (flag .and. idx /= MPI_UNDEFINED) then
      if (idx < 1 .or. idx > 2) stop 3
      i = i + 1
    end if
    if (flag .and. idx == MPI_UNDEFINED) exit
  end do
  call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
  if (rbuf(2) /= left) stop 4

  ! a struct of absolute addresses, sent from MPI_BOTTOM
  a = rank
  b = 10 * rank
  call MPI_GET_ADDRESS(a, disps(1), ierr)
  call MPI_GET_ADDRESS(b, disps(2), ierr)
  blens = 1
  types = MPI_INTEGER
  call MPI_TYPE_CREATE_STRUCT(2, blens, disps, types, stype, ierr)
  call MPI_TYPE_COMMIT(stype, ierr)
  call MPI_SENDRECV(MPI_BOTTOM, 1, stype, right, 3, r, 2, MPI_INTEGER, left, 3, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (r(1) /= left .or. r(2) /= 10 * left) stop 5
  call MPI_TYPE_FREE(stype, ierr)

  ! a periodic ring as a Cartesian communicator
  dims(1) = nprocs
  periods(1) = .true.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  call MPI_CART_COORDS(cart, rank, 1, coords, ierr)
  call MPI_CART_SHIFT(cart, 0, 1, src, dst, ierr)
  if (coords(1) /= rank .or. src /= left .or. dst /= right) stop 6
  call MPI_COMM_FREE(cart, ierr)

  ! the even ranks as a group and a communicator; a reduction in place at the root
  call MPI_COMM_GROUP(MPI_COMM_WORLD, world_group, ierr)
  ranges(1, 1) = 0
  ranges(2, 1) = nprocs - 1
  ranges(3, 1) = 2
  call MPI_GROUP_RANGE_INCL(world_group, 1, ranges, even_group, ierr)
  call MPI_COMM_CREATE(MPI_COMM_WORLD, even_group, even_comm, ierr)
  if (mod(rank, 2) == 0) then
    sum_ = rank
    if (rank == 0) then
      call MPI_REDUCE(MPI_IN_PLACE, sum_, 1, MPI_INTEGER, MPI_SUM, 0, even_comm, ierr)
      if (sum_ /= 2) stop 7
    else
      call MPI_REDUCE(sum_, sum_, 1, MPI_INTEGER, MPI_SUM, 0, even_comm, ierr)
    end if
    call MPI_COMM_FREE(even_comm, ierr)
  else if (even_comm /= MPI_COMM_NULL) then
    stop 8
  end if
  call MPI_GROUP_FREE(even_group, ierr)
  call MPI_GROUP_FREE(world_group, ierr)

  ! strings in and out
  call MPI_INFO_CREATE(info, ierr)
  call MPI_INFO_SET(info, "color  ", "blue   ", ierr)
  call MPI_INFO_GET(info, "color", 32, value, flag, ierr)
  if (.not. flag .or. value /= "blue") stop 9
  call MPI_INFO_SET(info, "  spaced ", "x", ierr)
  call MPI_INFO_GET(info, "spaced", 32, value, flag, ierr)
  if (.not. flag .or. value /= "x") stop 12
  value = "keep"
  call MPI_INFO_GET(info, "missing", 32, value, flag, ierr)
  if (flag .or. value /= "keep") stop 13
  call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
  if (nkeys /= 2) stop 10
  call MPI_INFO_FREE(info, ierr)
  call MPI_GET_PROCESSOR_NAME(host, rlen, ierr)
  if (rlen < 1 .or. len_trim(host) /= rlen) stop 11

  do i = 1, nprocs
    wsend(i) = 100 * rank + i - 1
    wcounts(i) = 1
    wdispls(i) = 4 * (i - 1)
    wtypes(i) = MPI_INTEGER
  end do
  call MPI_IALLTOALLW(wsend, wcounts, wdispls, wtypes, wrecv, wcounts, wdispls, wtypes, &
                      MPI_COMM_WORLD, wreq, ierr)
  call MPI_WAIT(wreq, MPI_STATUS_IGNORE, ierr)
  do i = 1, nprocs
    if (wrecv(i) /= 100 * (i - 1) + rank) stop 14
  end do

  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
end program ok_mpif
