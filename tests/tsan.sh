#!/bin/sh
# `make check`: the checker under ThreadSanitizer. Builds a second copy of
# libmpicheck.so with -fsanitize=thread (in $top_builddir/tsan, rebuilt only
# when sources change) and runs the multithreaded programs of tests/programs
# with it, preloaded by hand after ThreadSanitizer's runtime: every shared
# table of the checker must be read and written under its lock when the
# program calls MPI from several threads. A report from ThreadSanitizer, a
# crash, a finding or a time-out fails the program. Reports from inside the
# MPI library are suppressed (tests/tsan/suppressions.txt says why); a
# program with a planted race checks first that a report is still seen.
# Skipped (77), with the reason printed, where the compiler has no
# ThreadSanitizer runtime.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}
flavor=${MPI_FLAVOR:?}; mpicc=${MPICC:?}
cc=$($mpicc -show 2>/dev/null | awk '{print $1}')
tsan_rt=$(${cc:-cc} -print-file-name=libtsan.so 2>/dev/null)
tsan_rt=$(readlink -f "$tsan_rt" 2>/dev/null)
if [ ! -f "$tsan_rt" ]; then
    echo "SKIP tsan: ${cc:-cc} has no ThreadSanitizer runtime (libtsan.so; Debian: libtsan2)"
    exit 77
fi

dir=$b/tsan
mkdir -p "$dir" || exit 1
log=$dir/build.out
# Stacks with glibc's backtrace(3) in this build only: see stack.c.
flags="-g -O1 -fsanitize=thread -DMC_STACK_EXECINFO"
if [ ! -f "$dir/Makefile" ] || [ "$src/configure" -nt "$dir/Makefile" ]; then
    (cd "$dir" && "$src/configure" --with-mpicc="$mpicc" CFLAGS="$flags" LDFLAGS="-fsanitize=thread" >"$log" 2>&1) ||
        { tail -20 "$log"; echo "0 passed, 1 failed"; echo "FAIL tsan: configure of the ThreadSanitizer build failed ($log)"; exit 1; }
fi
make -C "$dir" -j2 >>"$log" 2>&1 ||
    { tail -20 "$log"; echo "0 passed, 1 failed"; echo "FAIL tsan: the ThreadSanitizer build failed ($log)"; exit 1; }
lib=$dir/src/.libs/libmpicheck.so
rm -f "$dir"/*.out

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
supp=$src/tests/tsan/suppressions.txt
opts="suppressions=$supp exitcode=66 halt_on_error=0 report_signal_unsafe=0 history_size=7 ignore_noninstrumented_modules=1"

# run PRELOAD NP EXE REPORT: the program under mpirun, preloaded by hand,
# output in $tmp/out. MPICH's UCX hooks malloc and mmap, which crashes
# ThreadSanitizer's own interceptors even without the checker: off here.
run() {
    preload=$1 np=$2 exe=$3 report=$4
    case $flavor in
        openmpi)
            timeout -k 5 180 mpirun.openmpi --oversubscribe -np "$np" -x LD_PRELOAD="$preload" \
                -x TSAN_OPTIONS="$opts" -x MPICHECK_REPORT="$report" -x MPICHECK_TIMEOUT=10 "$exe" ;;
        mpich)
            timeout -k 5 180 mpirun.mpich -np "$np" -genv LD_PRELOAD "$preload" \
                -genv TSAN_OPTIONS "$opts" -genv MPICHECK_REPORT "$report" -genv MPICHECK_TIMEOUT 10 \
                -genv UCX_MEM_MALLOC_HOOKS no -genv UCX_MEM_MMAP_HOOK_MODE none -genv UCX_MEM_EVENTS no "$exe" ;;
    esac >"$tmp/out" 2>&1
}

pass=0 fail=0
# The harness sees a race: a planted one in the program itself.
if $mpicc -g -O1 -fsanitize=thread -o "$tmp/planted" "$src/tests/tsan/planted_race.c" -lpthread 2>"$tmp/cc"; then
    run "$tsan_rt:$lib" 2 "$tmp/planted" "$tmp/planted.json"
    if grep -q "WARNING: ThreadSanitizer: data race" "$tmp/out"; then
        echo "PASS tsan/planted_race: ThreadSanitizer reports the planted race under this preload"
        pass=$((pass + 1))
    else
        echo "FAIL tsan/planted_race: no ThreadSanitizer report for a planted race: the test could not see one in the checker"
        tail -20 "$tmp/out"; fail=$((fail + 1))
    fi
else
    cat "$tmp/cc"; echo "FAIL tsan/planted_race: does not build"; fail=$((fail + 1))
fi

for prog in $(grep -l 'MPI_THREAD_MULTIPLE' "$src"/tests/programs/*.c | sort); do
    name=$(basename "$prog" .c)
    head=$(head -n 1 "$prog")
    case $head in *"FLAVOR: "*) case $head in *"FLAVOR: $flavor"*) ;; *) continue ;; esac ;; esac
    case $head in *"EXPECT: OK"*) ;; *) continue ;; esac
    np=$(printf '%s\n' "$head" | sed -n 's/.*NP: *\([0-9]*\).*/\1/p')
    if ! $mpicc -g -O0 -o "$tmp/$name" "$prog" -lpthread 2>"$tmp/cc"; then
        cat "$tmp/cc"; echo "FAIL tsan/$name: does not build"; fail=$((fail + 1)); continue
    fi
    start=$(date +%s)
    run "$tsan_rt:$lib" "${np:-2}" "$tmp/$name" "$tmp/$name.json"
    rc=$?
    secs=$(( $(date +%s) - start ))
    why=""
    reports=$(grep -c "WARNING: ThreadSanitizer" "$tmp/out")
    if [ "$reports" -gt 0 ]; then why="$reports ThreadSanitizer reports"
    elif [ "$rc" -ne 0 ]; then why="exit status $rc"
    elif grep -q "^mpicheck: \(ERROR\|WARNING\)" "$tmp/out"; then why="a finding on a correct program"
    elif grep -q "TEST FAILED" "$tmp/out"; then why="the program's own check failed"
    fi
    if [ -z "$why" ]; then
        echo "PASS tsan/$name (${secs}s)"; pass=$((pass + 1))
    else
        echo "FAIL tsan/$name: $why (${secs}s; whole output in $dir/$name.out)"
        cp "$tmp/out" "$dir/$name.out"
        grep -A12 "WARNING: ThreadSanitizer" "$tmp/out" | head -80
        tail -15 "$tmp/out"; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
