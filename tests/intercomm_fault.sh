#!/bin/sh
# A process that fails during MPI_Intercomm_create (issue 14, item 5):
# under the checker the job must end within its timeout plus a few seconds,
# never hang. Whether the checker can then say which side got what depends
# on the MPI surviving the failure: the program runs plainly first, and
# where the survivors do not get through the call (no fault tolerance in
# the library or its launcher) that part is skipped with the reason.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcfault.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
case $flavor in
    openmpi) launch="mpirun.openmpi"; extra="--oversubscribe"
             MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) launch="mpirun.mpich"; extra="-disable-auto-cleanup"
       MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
if ! $mpicc -g -O0 -o "$tmp/fault" "$src/tests/fault/intercomm_fault.c" 2> "$tmp/err"; then
    cat "$tmp/err"; echo "FAIL compile"; echo "0 passed, 1 failed"; exit 1
fi
# Under the checker: ends within --timeout=2 plus the abort's grace, well
# under the 60 s bound.
start=$(date +%s)
# shellcheck disable=SC2086
timeout -k 5 60 "$b/src/mpicheck" --timeout=2 --report="$tmp/r.json" -- $extra -np 4 "$tmp/fault" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?; took=$(( $(date +%s) - start ))
if [ "$rc" -ne 124 ] && [ "$took" -le 30 ]; then
    pass=$((pass + 1)); echo "PASS a process killed before MPI_Intercomm_create: the checked job ended in ${took} s (exit $rc)"
    # The launcher did not end the job at once (MPICH's -disable-auto-cleanup
    # leaves the survivors waiting): then the hang watch ended it, and says
    # so. The rank killed with SIGKILL ran no handler: only the watch can
    # tell it ended (its board says "running").
    if [ "$took" -ge 10 ]; then
        if grep -q '"hang"' "$tmp/r.json" 2>/dev/null && grep -q 'rank 3 ended' "$tmp/err"; then
            pass=$((pass + 1)); echo "PASS the survivors waited: the hang watch reported them, and rank 3 as ended"
        else
            fail=$((fail + 1)); echo "FAIL the survivors waited ${took} s, but no hang report names rank 3 as ended"
            tail -20 "$tmp/err"
        fi
    fi
else
    fail=$((fail + 1)); echo "FAIL a process killed before MPI_Intercomm_create: the checked job ran ${took} s (exit $rc)"
    tail -20 "$tmp/err"
fi
# Plainly: do the three survivors get through the call?
# shellcheck disable=SC2086
timeout -k 5 30 $launch $extra -np 4 "$tmp/fault" > "$tmp/plain" 2>&1
survived=$(grep -c '^SURVIVED' "$tmp/plain")
if [ "$survived" -lt 3 ]; then
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ] || exit 1
    echo "SKIP which side got what after a failure during MPI_Intercomm_create: with $flavor ($launch $extra) only $survived of 3 surviving processes return from the call plainly (the launcher ends the job, or MPI has no fault tolerance); docs/checks.md (intercomm-nonuniform)"
    exit 77
fi
if grep -q '"intercomm-nonuniform"\|"rank-exit"' "$tmp/r.json" 2>/dev/null; then
    pass=$((pass + 1)); echo "PASS the report says which side got what (intercomm-nonuniform or rank-exit)"
else
    fail=$((fail + 1)); echo "FAIL the survivors returned plainly, but the report has neither intercomm-nonuniform nor rank-exit"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
