#!/bin/sh
# probe-mpi.sh OUTDIR CC CPPFLAGS... -- LIBS...
# What the MPI library under build offers, for the wrapper generator and the
# coverage test:
#   OUTDIR/mpi-h.i          mpi.h after the preprocessor (exact prototypes)
#   OUTDIR/mpi-exports.txt  MPI_ functions its shared library exports
#   OUTDIR/mpi-libpath.txt  path of that shared library
set -eu
out=$1; cc=$2; shift 2
cflags=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do cflags="$cflags $1"; shift; done
[ $# -gt 0 ] && shift
libs="$*"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcprobe.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
printf '#include <mpi.h>\nint main(void) { return MPI_Init(0, 0); }\n' > "$tmp/p.c"
# shellcheck disable=SC2086
$cc $cflags -E "$tmp/p.c" > "$out/mpi-h.i.tmp"
mv "$out/mpi-h.i.tmp" "$out/mpi-h.i"
# shellcheck disable=SC2086
$cc $cflags "$tmp/p.c" -o "$tmp/p" $libs
lib=$(ldd "$tmp/p" | awk '/lib(mpi|mpich)\.so/ {print $3; exit}')
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
    echo "probe-mpi.sh: cannot find the MPI shared library the test program links" >&2
    exit 1
fi
echo "$lib" > "$out/mpi-libpath.txt"
# Functions only: the all-caps names are predefined callbacks (MPI_COMM_DUP_FN),
# *_F90 / *_f08 and the like are Fortran entry points.
nm -D --defined-only "$lib" | awk '$2 ~ /^[TWi]$/ && $3 ~ /^MPI_/ && $3 !~ /^MPI_[A-Z0-9_]+$/ {print $3}' \
    | grep -v -E '_(F90|f08|f)$' | sort -u > "$out/mpi-exports.txt"
