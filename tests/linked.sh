#!/bin/sh
# The library without the launcher: linked with -lmpicheck into a program and
# run under plain mpirun (the "preloaded by hand" mode, where settings come
# from MPICHECK_* variables and rank 0 merges the report at MPI_Finalize).
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mclinked.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -20 "$tmp/err"; }
case $flavor in
    openmpi) run="mpirun.openmpi --oversubscribe -np 2"; fwd() { echo "-x $1=$2"; } ;;
    *) run="mpirun.mpich -np 2"; fwd() { echo "-genv $1 $2"; } ;;
esac
libdir="$b/src/.libs"
prog="$src/tests/programs/invalid_argument_negative_count.c"
if ! $mpicc -g -O0 -o "$tmp/linked" "$prog" -L"$libdir" -lmpicheck -Wl,-rpath,"$libdir" 2> "$tmp/err"; then
    bad "link a program with -lmpicheck"
    echo "$pass passed, $fail failed"; exit 1
fi
# Linked, not preloaded: the finding must come from the linked library.
# shellcheck disable=SC2086
mkdir "$tmp/td"
timeout -k 5 120 $run $(fwd MPICHECK_REPORT "$tmp/r.json") $(fwd MPICHECK_HTML "$tmp/r.html") $(fwd TMPDIR "$tmp/td") "$tmp/linked" > "$tmp/out" 2> "$tmp/err"
rc=$?
if grep -q '<h2><span class="sev">ERROR</span> invalid-argument' "$tmp/r.html" 2>/dev/null; then
    ok "rank 0 wrote the HTML page at MPI_Finalize (MPICHECK_HTML)"
else
    bad "no HTML page with the invalid-argument finding from MPICHECK_HTML"
fi
if grep -q '^mpicheck: ERROR invalid-argument' "$tmp/err" && [ "$rc" -ne 0 ]; then
    ok "linked program reports invalid-argument and exits non-zero ($rc)"
else
    bad "linked program: expected an invalid-argument report and a non-zero exit, got rc=$rc"
fi
if "${PYTHON:-python3}" - "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["nprocs"] == 2, d["nprocs"]
assert d["summary"]["errors"] >= 1, d["summary"]
assert any(f["class"] == "invalid-argument" for f in d["findings"])
PY
then ok "rank 0 merged the job report at MPI_Finalize (MPICHECK_REPORT)"
else bad "job report from MPICHECK_REPORT missing or wrong"; fi
# Rank 0 removes the directory of the parts (and of the wait boards).
left=$(ls "$tmp/td")
if [ -z "$left" ]; then ok "no part directory left in TMPDIR after the run"
else bad "left in TMPDIR after the run: $left $(ls "$tmp/td"/* 2>/dev/null | tr '\n' ' ')"; fi
# Checks not made are in the merged report and rank 0's summary line too
# (a communicator the checker cannot copy: tests/sarif.sh says which).
case $flavor in
    openmpi) skipper=collective_mismatch_ok_connect_accept ;;
    *) skipper=intercomm_ok_split_leader_out ;;
esac
if $mpicc -g -O0 -o "$tmp/inter" "$src/tests/programs/$skipper.c" -L"$libdir" -lmpicheck \
        -Wl,-rpath,"$libdir" 2> "$tmp/err"; then
    # shellcheck disable=SC2086
    timeout -k 5 120 ${run%-np 2} -np 4 $(fwd MPICHECK_REPORT "$tmp/s.json") "$tmp/inter" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^mpicheck: not checked: [0-9]* unchecked-communicator (' "$tmp/err" &&
       "${PYTHON:-python3}" -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]["skipped"]; sys.exit(0 if [x["check"] for x in s] == ["unchecked-communicator"] else 1)' "$tmp/s.json"
    then ok "preloaded by hand, the checks not made are in the merged report and rank 0's summary line"
    else bad "preloaded by hand: expected exit 0, a 'not checked' line and summary.skipped, got rc=$rc"; fi
else
    bad "link $skipper with -lmpicheck"
fi
# A bad setting stops the job with one message naming it.
# shellcheck disable=SC2086
timeout -k 5 120 $run $(fwd MPICHECK_TIMEOUT abc) "$tmp/linked" > "$tmp/out" 2> "$tmp/err"
rc=$?
n=$(grep -c "invalid value 'abc' in MPICHECK_TIMEOUT" "$tmp/err")
if [ "$rc" -ne 0 ] && [ "$n" -eq 1 ]; then
    ok "bad MPICHECK_TIMEOUT: one message, job stopped (rc=$rc)"
else
    bad "bad MPICHECK_TIMEOUT: expected exactly one message and a failed job, got $n messages, rc=$rc"
fi
# Under the launcher, a shell script that execs the MPI program: the preload
# must survive the shell (it is dropped only for what a rank itself starts).
$mpicc -g -O0 -o "$tmp/plain" "$prog" 2> "$tmp/err"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$tmp/plain" > "$tmp/wrap.sh"
chmod +x "$tmp/wrap.sh"
case $flavor in
    openmpi) extra="--oversubscribe"; MPICHECK_INTERNAL_LIB_OPENMPI="$libdir/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; MPICHECK_INTERNAL_LIB_MPICH="$libdir/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --mpi="$flavor" -- $extra -np 2 "$tmp/wrap.sh" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 3 ] && grep -q '^mpicheck: ERROR invalid-argument' "$tmp/err"; then
    ok "program started through a shell script is checked (exit 3)"
else
    bad "program started through a shell script: expected a finding and exit 3, got rc=$rc"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
