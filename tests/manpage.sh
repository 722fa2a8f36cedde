#!/bin/sh
# mpicheck(1) (docs/mpicheck.1): every option of --help has an entry, and
# groff renders the page without a warning.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}
page="$src/docs/mpicheck.1"
pass=0; fail=0
missing=""
for opt in $("$b/src/mpicheck" --help | grep -o '^  --[a-z-]*' | sed 's/^ *//'); do
    esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
    grep -q -- "$esc" "$page" || missing="$missing $opt"
done
if [ -z "$missing" ]; then
    pass=$((pass + 1)); echo "PASS mpicheck(1) has an entry for every option of --help"
else
    fail=$((fail + 1)); echo "FAIL mpicheck(1) lacks the options:$missing"
fi
if ! command -v groff >/dev/null 2>&1; then
    echo "$pass passed, $fail failed"
    echo "SKIP groff is not installed (Debian groff-base): mpicheck(1) was not rendered"
    [ "$fail" -eq 0 ] && exit 77
    exit 1
fi
if out=$(groff -man -ww -z "$page" 2>&1) && [ -z "$out" ]; then
    pass=$((pass + 1)); echo "PASS groff renders mpicheck(1) without a warning"
else
    fail=$((fail + 1)); echo "FAIL groff warns about mpicheck(1): $out"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
