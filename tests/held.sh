#!/bin/sh
# Held nonblocking collectives (issue 15, item 5; src/coll/held.c): the
# real operation reaches MPI only after its handshake's verdict, or earlier
# when another call needs it in MPI first or a member is late. The checker
# says when it starts each one (MPICHECK_INTERNAL_TEST_HELD_TRACE), and
# this checks the three ways on programs of tests/programs, and that a
# mismatch is reported before the real operation ever reached MPI.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcheld.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
case $flavor in
    openmpi) extra="--oversubscribe"
             MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""
       MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
MPICHECK_INTERNAL_TEST_HELD_TRACE=1; export MPICHECK_INTERNAL_TEST_HELD_TRACE
# run NAME: tests/programs/NAME.c under the checker, 2 ranks, stderr in $tmp/NAME.err
run() {
    if ! $mpicc -g -O0 -o "$tmp/$1" "$src/tests/programs/$1.c" 2> "$tmp/$1.cc"; then
        cat "$tmp/$1.cc"; return 1
    fi
    # shellcheck disable=SC2086
    timeout -k 5 60 "$b/src/mpicheck" --timeout=1 --report="$tmp/$1.json" -- $extra -np 2 "$tmp/$1" \
        > "$tmp/$1.out" 2> "$tmp/$1.err"
}
check() {   # check WHAT CONDITION-RESULT FILE
    if [ "$2" = yes ]; then
        pass=$((pass + 1)); echo "PASS $1"
    else
        fail=$((fail + 1)); echo "FAIL $1"; grep -v '^mpicheck:     at' "$3" | tail -25
    fi
}
has() { grep -q "$1" "$2" && echo yes || echo no; }

run collective_ok_held
check "collective_ok_held: an MPI_Ialltoallv polled with MPI_Testall starts after its handshake, on both ranks" \
    "$( [ "$(grep -c 'held MPI_Ialltoallv started after its handshake' "$tmp/collective_ok_held.err")" -eq 2 ] && echo yes || echo no)" \
    "$tmp/collective_ok_held.err"
check "collective_ok_held: an MPI_Ibarrier on a communicator freed before its wait starts at MPI_Comm_free" \
    "$(has 'held MPI_Ibarrier started before its verdict: a call needs it made first' "$tmp/collective_ok_held.err")" \
    "$tmp/collective_ok_held.err"
check "collective_ok_held: silent" "$(has 'no errors found' "$tmp/collective_ok_held.err")" "$tmp/collective_ok_held.err"

run deadlock_ok_ibcast_root_first
check "deadlock_ok_ibcast_root_first: the root's MPI_Ibcast starts when its wait outlasts the bound, and the job ends silently" \
    "$( grep -q 'rank 0: held MPI_Ibcast started before its verdict: a member is late' "$tmp/deadlock_ok_ibcast_root_first.err" &&
        grep -q 'no errors found' "$tmp/deadlock_ok_ibcast_root_first.err" && echo yes || echo no)" \
    "$tmp/deadlock_ok_ibcast_root_first.err"

run collective_mismatch_ialltoallv_igather
check "collective_mismatch_ialltoallv_igather: the mismatch is reported and neither operation ever reached MPI" \
    "$( grep -q 'ERROR collective-mismatch' "$tmp/collective_mismatch_ialltoallv_igather.err" &&
        ! grep -q 'held MPI_I[a-z]* started' "$tmp/collective_mismatch_ialltoallv_igather.err" &&
        ! grep -q 'mpi-error' "$tmp/collective_mismatch_ialltoallv_igather.err" && echo yes || echo no)" \
    "$tmp/collective_mismatch_ialltoallv_igather.err"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
