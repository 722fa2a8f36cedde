#!/bin/sh
# A stripped program (no symbols, no debug information, loaded at another
# address on every rank): a finding made by every rank at the same call
# site is one finding of all ranks, its frame names the address in the
# program's file (the same on every rank), and that address is the call
# site: addr2line on the unstripped twin of the same link finds the line.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}; flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcstripped.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -f "$tmp/err" ] && tail -20 "$tmp/err"; }
for tool in objcopy addr2line; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool is not installed (binutils)"; exit 77; }
done
case $flavor in
    openmpi) extra="--oversubscribe" ;;
    *) extra="" ;;
esac
cat > "$tmp/leak.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* LEAK-LINE */
    MPI_Finalize();
    return 0;
}
C
line=$(grep -n "LEAK-LINE" "$tmp/leak.c" | cut -d: -f1)
if ! $mpicc -g -O0 -fPIE -pie -o "$tmp/leak.g" "$tmp/leak.c" 2> "$tmp/err" ||
   ! objcopy --strip-all "$tmp/leak.g" "$tmp/leak"; then
    bad "build a stripped position-independent program"
    echo "$pass passed, $fail failed"; exit 1
fi
# shellcheck disable=SC2086
timeout -k 5 120 "$b/src/mpicheck" --timeout=5 --report="$tmp/r.json" -- $extra -np 2 "$tmp/leak" \
    > "$tmp/out" 2> "$tmp/err"
rc=$?
off=$("${PYTHON:-python3}" - "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
leaks = [f for f in d["findings"] if f["class"] == "resource-leak"]
assert len(leaks) == 1, "%d resource-leak findings, expected one of both ranks" % len(leaks)
f = leaks[0]
assert f["ranks"] == [0, 1], f["ranks"]
top = [c["stack"][0] for c in f["calls"]]
assert all(t["file"] is None for t in top), top
offs = {t["offset"] for t in top}
assert len(offs) == 1 and None not in offs, offs
print(offs.pop())
PY
)
if [ -n "$off" ]; then
    ok "one resource-leak finding of ranks 0 and 1 from the stripped program (frame offset $off; rc=$rc)"
else
    bad "expected one resource-leak finding of both ranks with one frame offset (rc=$rc)"
fi
if [ -n "$off" ] && grep -q "^mpicheck:     at ?? ($tmp/leak +$off)\$" "$tmp/err"; then
    ok "the text report names the program and the offset"
else
    bad "no 'at ?? ($tmp/leak +$off)' frame line in the text report"
fi
# The return address is after the call: addr2line takes the byte before it.
if [ -n "$off" ]; then
    at=$(addr2line -e "$tmp/leak.g" "$(printf '0x%x' $((off - 1)))")
    case $at in
        *leak.c:"$line") ok "addr2line on the unstripped twin finds the call site ($at)" ;;
        *) bad "addr2line -e leak.g $off - 1 gave '$at', expected leak.c:$line" ;;
    esac
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
