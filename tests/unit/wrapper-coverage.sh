#!/bin/sh
# Every MPI function the installed MPI library exports must have a wrapper in
# libmpicheck.so: a function without one would run unchecked, silently.
# Also: every function the generator says it wrapped is really exported.
set -u
b=${top_builddir:-.}
lib="$b/src/.libs/libmpicheck.so"
exports="$b/wrappers/mpi-exports.txt"
wrapped="$b/wrappers/mc_wrapped.txt"
for f in "$lib" "$exports" "$wrapped"; do
    [ -f "$f" ] || { echo "wrapper-coverage: missing $f (build first)"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mccov.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$3 ~ /^MPI_/ {print $3}' | sort -u > "$tmp/ours"
sort -u "$exports" > "$tmp/theirs"
missing=$(comm -23 "$tmp/theirs" "$tmp/ours")
n_theirs=$(wc -l < "$tmp/theirs")
n_ours=$(wc -l < "$tmp/ours")
if [ -n "$missing" ]; then
    echo "wrapper-coverage: $(echo "$missing" | wc -l) of $n_theirs exported MPI functions have no wrapper:"
    echo "$missing" | sed 's/^/  /'
    echo "0 passed, 1 failed"
    exit 1
fi
sort -u "$wrapped" > "$tmp/claimed"
phantom=$(comm -23 "$tmp/claimed" "$tmp/ours")
if [ -n "$phantom" ]; then
    echo "wrapper-coverage: the generator listed these as wrapped but the library does not define them:"
    echo "$phantom" | sed 's/^/  /'
    echo "0 passed, 1 failed"
    exit 1
fi
echo "wrapper-coverage: all $n_theirs exported MPI functions are wrapped ($n_ours MPI_ symbols in libmpicheck.so)"
echo "1 passed, 0 failed"
