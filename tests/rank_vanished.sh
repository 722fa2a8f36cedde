#!/bin/sh
# A rank that ends with no word of its own (launcher/vanished.c): where a
# job fails and the launcher finds a rank's board still running with its
# process gone, it reports `rank-exit` (tests/programs/rank_exit_killed.c,
# rank_exit_handler_replaced.c). Here the ends that must NOT be reported
# so, each a job that fails for a reason the boards or the findings show:
#  1. the program's own MPI_Abort (the launcher kills the other rank):
#     no finding, the job's exit status (5);
#  2. a rank that returns 1 after MPI_Finalize: no finding, status 1;
#  3. a crash the rank reports itself (the checker's signal handler): one
#     finding only, the rank's own (not a second one from the launcher);
#  4. SIGTERM to mpicheck while the ranks compute: no finding.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcvanish.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -20 "$tmp/err"; }
lib="$b/src/.libs/libmpicheck.so"
case $flavor in
    openmpi) extra="--oversubscribe"; MPICHECK_INTERNAL_LIB_OPENMPI=$lib; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; MPICHECK_INTERNAL_LIB_MPICH=$lib; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
cat > "$tmp/abort.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Abort(MPI_COMM_WORLD, 5);
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
C
cat > "$tmp/fail_after.c" <<'C'
#include <mpi.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        sleep(1);
    MPI_Finalize();
    return rank == 0;   /* rank 0 reports a failure of its own */
}
C
cat > "$tmp/sleepy.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("computing\n");
    fflush(stdout);
    sleep(60);
    MPI_Finalize();
    return 0;
}
C
for p in abort fail_after sleepy; do
    $mpicc -g -o "$tmp/$p" "$tmp/$p.c" 2> "$tmp/err" || { bad "compile $p"; echo "$pass passed, $fail failed"; exit 1; }
done
$mpicc -g -o "$tmp/crash" "$src/tests/programs/rank_exit_crash.c" 2> "$tmp/err" || { bad "compile crash"; echo "$pass passed, $fail failed"; exit 1; }
run() {     # run PROGRAM: stderr in $tmp/err, the report in $tmp/r.json, the status in $rc
    rm -f "$tmp/r.json"
    # shellcheck disable=SC2086
    timeout -k 5 120 "$b/src/mpicheck" --timeout=2 --report="$tmp/r.json" -- $extra -np 2 "$tmp/$1" > "$tmp/out" 2> "$tmp/err"
    rc=$?
}
nfindings() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$tmp/r.json" 2>/dev/null || echo none; }

run abort
n=$(nfindings)
if [ "$n" = 0 ] && [ "$rc" -eq 5 ]; then
    ok "the program's MPI_Abort(5): no finding, exit status 5"
else
    bad "the program's MPI_Abort(5): expected no finding and exit status 5, got $n findings, status $rc"
fi
run fail_after
n=$(nfindings)
if [ "$n" = 0 ] && [ "$rc" -eq 1 ]; then
    ok "a rank that returns 1 after MPI_Finalize: no finding, exit status 1"
else
    bad "a rank that returns 1 after MPI_Finalize: expected no finding and exit status 1, got $n findings, status $rc"
fi
run crash
if [ "$(nfindings)" = 1 ] && [ "$rc" -eq 3 ] && grep -q "was killed by signal 11" "$tmp/err" \
   && ! grep -q "no word of" "$tmp/err"; then
    ok "a crash the rank reports itself: its own rank-exit only, none from the launcher"
else
    bad "a crash the rank reports itself: expected exactly its own rank-exit finding and exit status 3, got $(nfindings), status $rc"
fi
# SIGTERM to mpicheck once the ranks compute (they print "computing"
# first), as a batch system's time limit sends it. Not SIGINT: a shell
# without job control starts background commands with SIGINT ignored, and
# the ranks would inherit that. A watchdog instead of timeout(1), which
# would take the signal itself.
rm -f "$tmp/r.json"
# shellcheck disable=SC2086
"$b/src/mpicheck" --timeout=2 --report="$tmp/r.json" -- $extra -np 2 "$tmp/sleepy" > "$tmp/out" 2> "$tmp/err" &
pid=$!
( sleep 120; kill -KILL "$pid" 2>/dev/null ) &
dog=$!
i=0
while [ "$(grep -c computing "$tmp/out" 2>/dev/null)" -lt 2 ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$pid"
wait "$pid"
rc=$?
kill "$dog" 2>/dev/null
n=$(nfindings)
# Only the finding is judged: with MPICH the ranks sometimes finish
# normally after the signal (both finalized, status 0; seen 2 in 6 runs on
# 2026-12-07, not traced), and then there is nothing to report either.
if [ "$n" = 0 ]; then
    ok "SIGTERM to mpicheck while the ranks compute: no finding (exit status $rc)"
else
    bad "SIGTERM to mpicheck while the ranks compute: expected a report without findings, got $n findings, status $rc"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
