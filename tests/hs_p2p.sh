#!/bin/sh
# The collective handshakes by point-to-point (issue 19; src/coll/hs_p2p.c).
# A communicator switches to them after MC_HS_TWIN_AFTER collectives, so the
# short programs of tests/programs mostly run the first way. Here:
#  1. programs of tests/programs past the threshold (collective_ok_many.c,
#     collective_mismatch_root_late.c, deadlock_coll_recv_late.c) under the
#     checker's trace (MPICHECK_INTERNAL_TEST_P2P_TRACE): every rank says it
#     switched, and the verdict is the expected one;
#  2. every collective program of tests/programs with the switch after the
#     first collective (MPICHECK_INTERNAL_TWIN_AFTER=1): the same verdicts
#     as with the first way (run_programs.py's EXPECT headers).
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mchsp2p.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
case $flavor in
    openmpi) extra="--oversubscribe"
             MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""
       MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
ok() { pass=$((pass + 1)); echo "PASS hs_p2p: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL hs_p2p: $1"; tail -15 "$tmp/$2.err" 2>/dev/null | sed 's/^/  | /'; }

# run NAME NP: tests/programs/NAME.c under the checker with the trace
run() {
    if ! $mpicc -g -O0 -o "$tmp/$1" "$src/tests/programs/$1.c" 2> "$tmp/$1.cc"; then
        cat "$tmp/$1.cc"; return 1
    fi
    # shellcheck disable=SC2086
    MPICHECK_INTERNAL_TEST_P2P_TRACE=1 timeout -k 5 90 "$b/src/mpicheck" --timeout=1 --report="$tmp/$1.json" -- \
        $extra -np "$2" "$tmp/$1" > "$tmp/$1.out" 2> "$tmp/$1.err"
    rc=$?
}
switched() { grep -c 'mpicheck-trace: rank [0-9]*: handshakes by point-to-point after collective' "$tmp/$1.err"; }
classes() { python3 -c "import json,sys; print(' '.join(sorted({f['class'] for f in json.load(open(sys.argv[1]))['findings']})))" "$tmp/$1.json" 2>/dev/null; }

run collective_ok_many 3
n=$(switched collective_ok_many)
if [ "$rc" -eq 0 ] && [ -z "$(classes collective_ok_many)" ] && [ "$n" -ge 6 ] &&
   grep -q 'mpicheck-trace: rank [0-9]*: MPI_Barrier without a real call' "$tmp/collective_ok_many.err" &&
   grep -q 'mpicheck-trace: rank [0-9]*: MPI_Allreduce without a real call' "$tmp/collective_ok_many.err" &&
   grep -q 'mpicheck-trace: rank [0-9]*: MPI_Bcast without a real call' "$tmp/collective_ok_many.err"; then
    ok "collective_ok_many (3 ranks): $n switches (MPI_COMM_WORLD and its duplicate on every rank, the split halves), MPI_Barrier left to its handshake, MPI_Allreduce and MPI_Bcast carried in it, right results (the program checks them), no finding"
else
    bad "collective_ok_many: exit $rc, $n switches (expected at least 6), findings '$(classes collective_ok_many)'" collective_ok_many
fi
run collective_mismatch_root_late 3
n=$(switched collective_mismatch_root_late)
if [ "$rc" -eq 3 ] && [ "$(classes collective_mismatch_root_late)" = collective-mismatch ] && [ "$n" -eq 3 ]; then
    ok "collective_mismatch_root_late: the different root of the 100th MPI_Bcast found after all 3 ranks switched"
else
    bad "collective_mismatch_root_late: exit $rc, $n switches (expected 3), findings '$(classes collective_mismatch_root_late)'" collective_mismatch_root_late
fi
run deadlock_coll_recv_late 2
n=$(switched deadlock_coll_recv_late)
if [ "$rc" -eq 3 ] && [ "$(classes deadlock_coll_recv_late)" = deadlock ] && [ "$n" -eq 2 ]; then
    ok "deadlock_coll_recv_late: the deadlock through the 65th MPI_Barrier found after both ranks switched"
else
    bad "deadlock_coll_recv_late: exit $rc, $n switches (expected 2), findings '$(classes deadlock_coll_recv_late)'" deadlock_coll_recv_late
fi

# 2. The collective programs with the switch after the first collective.
mpifort=${MPIFORT:-$(echo "$mpicc" | sed 's/mpicc/mpif90/')}
MPICHECK_INTERNAL_TWIN_AFTER=1 "${PYTHON:-python3}" "$src/tests/run_programs.py" --flavor "$flavor" --mpicc "$mpicc" \
    --mpifort "$mpifort" --mpicheck "$b/src/mpicheck" --builddir "$b/tests/programs-bin-p2p" \
    --schema "$src/docs/report-schema.json" --jobs "${MPICHECK_TEST_JOBS:-2}" \
    '*coll*' '*barrier*' '*bcast*' '*reduce*' '*gather*' '*scatter*' '*alltoall*' '*neighbor*' '*held*' \
    '*split*' '*dup*' '*intercomm*' '*many*' '*late*' > "$tmp/programs.out" 2>&1
prc=$?
np=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1/p' "$tmp/programs.out" | tail -1)
nf=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\2/p' "$tmp/programs.out" | tail -1)
if [ "$prc" -eq 0 ] && [ "${np:-0}" -gt 40 ] && [ "${nf:-1}" -eq 0 ]; then
    ok "$np collective programs of tests/programs with the switch after the first collective: every verdict as expected"
else
    fail=$((fail + 1))
    echo "FAIL hs_p2p: collective programs with MPICHECK_INTERNAL_TWIN_AFTER=1: ${np:-?} passed, ${nf:-?} failed (exit $prc):"
    grep -A12 '^FAIL' "$tmp/programs.out" | head -80 | sed 's/^/  /'
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
