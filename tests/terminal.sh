#!/bin/sh
# The terminal report under the launcher (issue 16): each distinct finding
# printed once with the ranks that reported it, --verbose for every rank's
# block, and the ranks printing their own findings when preloaded by hand.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcterm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -30 "$tmp/err"; }
lib="$b/src/.libs/libmpicheck.so"
case $flavor in
    openmpi) extra="--oversubscribe"; MPICHECK_INTERNAL_LIB_OPENMPI=$lib; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    *) extra=""; MPICHECK_INTERNAL_LIB_MPICH=$lib; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
for p in leak_every_rank two_findings repeated_finding; do
    $mpicc -g -O0 -o "$tmp/$p" "$src/tests/terminal/$p.c" 2> "$tmp/err" || { bad "compile $p"; echo "$pass passed, $fail failed"; exit 1; }
done
run() {     # run NP PROGRAM [mpicheck options]: stderr in $tmp/err, the report in $tmp/r.json
    np=$1; prog=$2; shift 2
    # shellcheck disable=SC2086
    timeout -k 5 120 "$b/src/mpicheck" --timeout=5 --report="$tmp/r.json" "$@" -- $extra -np "$np" "$tmp/$prog" > "$tmp/out" 2> "$tmp/err"
}
blocks() { grep -c '^mpicheck: \(ERROR\|WARNING\) ' "$tmp/err"; }

# One finding on every one of 16 ranks: one block, ranks 0-15.
run 16 leak_every_rank
n=$(blocks)
if [ "$n" -eq 1 ] && grep -q 'reported by ranks 0-15 (16 of 16)' "$tmp/err" \
   && python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["findings"]; sys.exit(not (len(f)==1 and f[0]["ranks"]==list(range(16))))' "$tmp/r.json"; then
    ok "16 ranks with one leak each: one block, 'ranks 0-15 (16 of 16)', and the report has it once with the 16 ranks"
else
    bad "16 ranks with one leak each: expected one block naming ranks 0-15 (16 of 16), got $n blocks"
fi
# Readable blocks: the source line under the call site, as compilers show
# it; colors only when asked (stderr is no terminal here).
if grep -q '^mpicheck:        12 |     MPI_Type_contiguous(4, MPI_INT, &t);$' "$tmp/err" && ! grep -q "$(printf '\033')" "$tmp/err"; then
    ok "the source line under the call site (12 | MPI_Type_contiguous...), and no color on a pipe"
else
    bad "expected the source line '12 |     MPI_Type_contiguous(4, MPI_INT, &t);' under the call site, and no escape sequence"
fi
NO_COLOR=1 run 2 leak_every_rank --color=always
if grep -q "^mpicheck: $(printf '\033')\[33mWARNING$(printf '\033')\[0m $(printf '\033')\[1mresource-leak" "$tmp/err"; then
    ok "--color=always colors the severity and the class (and wins over NO_COLOR)"
else
    bad "--color=always: no colored 'WARNING resource-leak'"
fi
# Code the compiler inlined: a frame for the helper at its line, then main
# at the helper's call (the symbol table alone said "main" with the
# helper's line, and main's own line was missing).
$mpicc -g -O2 -o "$tmp/inl" "$src/tests/terminal/leak_in_inlined_helper.c" 2> "$tmp/err"
run 1 inl
if grep -q '^mpicheck:     at make_type (.*leak_in_inlined_helper.c:8)$' "$tmp/err" \
   && grep -q '^mpicheck:     at main (.*leak_in_inlined_helper.c:15)$' "$tmp/err" \
   && python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["findings"][0]["calls"][0]["stack"]; sys.exit(not ([f.get("function") for f in s[:2]]==["make_type","main"] and [f.get("line") for f in s[:2]]==[8,15]))' "$tmp/r.json"; then
    ok "a call in an inlined helper: 'at make_type (...:8)' then 'at main (...:15)', in the text and the report"
else
    bad "a call in an inlined helper: expected frames make_type (line 8) then main (line 15)"
fi
$mpicc -g -O0 -o "$tmp/rr" "$src/tests/programs/deadlock_recv_recv.c" 2> "$tmp/err"
run 2 rr --timeout=1
if grep -q '^mpicheck:   hint: each call above waits for another one of them' "$tmp/err"; then
    ok "a deadlock's block has a one-line hint of the fix"
else
    bad "a deadlock's block lacks its hint line"
fi
# --verbose: every rank's block.
run 4 leak_every_rank --verbose
n=$(blocks)
if [ "$n" -eq 4 ] && ! grep -q 'reported by ranks' "$tmp/err"; then
    ok "--verbose: each of the 4 ranks' blocks"
else
    bad "--verbose: expected 4 blocks, got $n"
fi
# Two different findings on different ranks: two blocks.
run 3 two_findings
n=$(blocks)
if [ "$n" -eq 2 ] && grep -q 'rank 0: MPI_Type_contiguous' "$tmp/err" && grep -q 'rank 1: MPI_Comm_dup' "$tmp/err"; then
    ok "two findings on two ranks: two blocks, each with its rank's call"
else
    bad "two findings on two ranks: expected two blocks (rank 0's MPI_Type_contiguous, rank 1's MPI_Comm_dup), got $n"
fi
# Preloaded by hand, without mpicheck: each rank prints its own block.
mkdir -p "$tmp/parts"
case $flavor in
    openmpi) timeout -k 5 120 mpirun.openmpi --oversubscribe -x LD_PRELOAD="$lib" -x MPICHECK_DIR="$tmp/parts" \
                 -np 2 "$tmp/leak_every_rank" > "$tmp/out" 2> "$tmp/err" ;;
    *) timeout -k 5 120 mpirun.mpich -genv LD_PRELOAD "$lib" -genv MPICHECK_DIR "$tmp/parts" \
           -np 2 "$tmp/leak_every_rank" > "$tmp/out" 2> "$tmp/err" ;;
esac
n=$(blocks)
if [ "$n" -eq 2 ]; then
    ok "preloaded by hand: each of the 2 ranks prints its block"
else
    bad "preloaded by hand: expected 2 blocks from the ranks, got $n"
fi

# --gen-suppressions prints an entry per finding; that entry silences its
# finding and no other.
run 3 two_findings --gen-suppressions
# The datatype leak's entry, whichever block the terminal printed first
# (the ranks' findings arrive in either order).
awk '/^\{$/{on=1; b=""} on{b=b $0 "\n"} /^\}$/{if (on && b ~ /call:MPI_Type_contiguous/) {printf "%s", b; exit} on=0}' "$tmp/err" \
    | sed 's/<insert_a_suppression_name_here>/leaked-type/' > "$tmp/gen.supp"
if grep -q '^   mpicheck:resource-leak$' "$tmp/gen.supp" && grep -q '^   call:MPI_Type_contiguous$' "$tmp/gen.supp"; then
    ok "--gen-suppressions: an entry with the class and the call"
else
    bad "--gen-suppressions: no entry for the MPI_Type_contiguous leak"; cat "$tmp/gen.supp"
fi
run 3 two_findings --suppressions="$tmp/gen.supp"
rc=$?
n=$(blocks)
if [ "$n" -eq 1 ] && grep -q 'rank 1: MPI_Comm_dup' "$tmp/err" && grep -q 'no errors, 1 warning, 1 suppressed in 3 ranks' "$tmp/err" \
   && python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); s=[x for x in f["findings"] if x.get("suppressed")]; sys.exit(not (len(f["findings"])==2 and len(s)==1 and s[0]["suppression"]=="leaked-type" and s[0]["calls"][0]["call"]=="MPI_Type_contiguous" and f["summary"]=={"errors":0,"warnings":1,"suppressed":1}))' "$tmp/r.json"; then
    ok "the generated suppression silences exactly its finding: one block left, the report lists it with suppressed: true"
else
    bad "the generated suppression: expected only rank 1's MPI_Comm_dup block and '1 suppressed', got $n blocks (exit $rc)"
fi
# Suppressions by class, function and frame.
cat > "$tmp/by.supp" <<'SUPP'
# leaks of communicators, anywhere
{
   any-comm-leak
   mpicheck:resource-*
   call:MPI_Comm_*
}
{
   types-in-main
   mpicheck:resource-leak
   call:MPI_Type_contiguous
   ...
   fun:main
}
SUPP
run 3 two_findings --suppressions="$tmp/by.supp"
if [ "$(blocks)" -eq 0 ] && grep -q 'no errors found, 2 suppressed in 3 ranks' "$tmp/err"; then
    ok "suppressions by class pattern and call, and by frames with '...' and fun:main: both findings suppressed"
else
    bad "suppressions by class/call/frames: expected no block and '2 suppressed'"
fi
cat > "$tmp/miss.supp" <<'SUPP'
{
   not-this-one
   mpicheck:resource-leak
   fun:no_such_function
}
SUPP
run 3 two_findings --suppressions="$tmp/miss.supp"
if [ "$(blocks)" -eq 2 ] && ! grep -q 'suppressed' "$tmp/err"; then
    ok "a suppression whose frame does not match silences nothing"
else
    bad "a suppression with fun:no_such_function must silence nothing"
fi
# A broken file: exit 2 before the job, naming the line.
printf '{\n   bad-entry\n   mpicheck:no-such-class\n}\n' > "$tmp/bad.supp"
run 2 two_findings --suppressions="$tmp/bad.supp"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "bad.supp:3: unknown class" "$tmp/err"; then
    ok "a malformed suppressions file: exit 2, 'FILE:3: unknown class'"
else
    bad "a malformed suppressions file: expected exit 2 and 'bad.supp:3: unknown class', got exit $rc"
fi
# --checks switches classes off and refuses unknown names.
run 3 two_findings --checks=all,-resource-leak
rc=$?
if [ "$rc" -eq 0 ] && [ "$(blocks)" -eq 0 ] && grep -q 'checks switched off (--checks): resource-leak' "$tmp/err" \
   && python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); sys.exit(not (f["findings"]==[] and f["summary"]["checks_off"]=="resource-leak"))' "$tmp/r.json"; then
    ok "--checks=all,-resource-leak: no leak reported, the summary and the report name the check switched off"
else
    bad "--checks=all,-resource-leak: expected no finding and the check named as off, got exit $rc"
fi
run 2 two_findings --checks=all,-resource-leek
rc=$?
if [ "$rc" -eq 2 ] && grep -q "unknown check 'resource-leek' in --checks (the checks: all, none, deadlock" "$tmp/err"; then
    ok "--checks with an unknown name: exit 2, the valid names listed"
else
    bad "--checks=all,-resource-leek: expected exit 2 listing the checks, got exit $rc"
fi
# Repeats: each rank reports its finding once; the launcher says how many
# were not shown, after the findings, and the report's summary counts them.
run 2 repeated_finding
last=$(grep -n '^mpicheck: \(ERROR\|WARNING\) ' "$tmp/err" | tail -1 | cut -d: -f1)
line=$(grep -n '^mpicheck: 8 more occurrences of the findings above were not reported again' "$tmp/err" | cut -d: -f1)
if [ -n "$last" ] && [ -n "$line" ] && [ "$line" -gt "$last" ] && ! grep -q 'mpicheck: rank [0-9]*: .*more occurrences' "$tmp/err" \
   && python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); sys.exit(not f["summary"].get("repeats")==8)' "$tmp/r.json"; then
    ok "repeated findings: '8 more occurrences' after the findings, summary.repeats 8, no rank's own line"
else
    bad "repeated findings: expected '8 more occurrences ...' after the last finding and summary.repeats 8"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
