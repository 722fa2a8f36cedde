#!/bin/sh
# The Debian packages (issue 20), built by the project's own debian/ from a
# copy of this source tree, the way a distribution or a cluster's
# administrator would: dpkg-buildpackage (its unit tests included), lintian
# without an error, the files each package holds, then installed with dpkg
# and used from the installed paths only (/usr/bin/mpicheck on the bundled
# demo, built with each installed MPI; a program built with
# `pkg-config mpicheck-<flavor>` and the installed header), then purged.
# Run once by ./scripts/check (not per MPI: one build makes both libraries).
# Needs both MPIs' -dev packages (the package build configures against
# each); installs debhelper and lintian when missing. Skips (exit 77) where
# it cannot run: not root (dpkg -i), no apt-get, an mpicheck package that
# this test did not install is installed already (it would be replaced).
set -u
src=${top_srcdir:?}
pass=0; fail=0
ok() { pass=$((pass + 1)); echo "PASS debian: $1"; }
bad() { fail=$((fail + 1)); echo "FAIL debian: $1"; }
skip() { echo "SKIP debian: $1"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "needs root to install the packages with dpkg"
command -v dpkg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 || skip "not a Debian system (no dpkg, apt-get)"
for p in mpicheck mpicheck-openmpi mpicheck-mpich; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        skip "package $p is installed already; this test installs and purges its own"
    fi
done
need=""
command -v dh >/dev/null 2>&1 || need="$need debhelper"
command -v lintian >/dev/null 2>&1 || need="$need lintian"
command -v dpkg-buildpackage >/dev/null 2>&1 || need="$need dpkg-dev"
for p in libopenmpi-dev libmpich-dev libpmix-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need="$need $p"
done
if [ -n "$need" ]; then
    echo "installing$need for this test"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need > /dev/null 2>&1 ||
        skip "could not install$need"
fi

work=$(mktemp -d /tmp/mpicheck-debian.XXXXXX)
installed=0
cleanup() {
    if [ "$installed" = 1 ]; then
        dpkg --purge mpicheck-openmpi mpicheck-mpich mpicheck > "$work/purge.out" 2>&1 ||
            { echo "FAIL debian: dpkg --purge failed:"; tail -5 "$work/purge.out"; }
    fi
    [ -n "${MC_TEST_KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

# The source as a clean checkout has it: tracked files and new ones not
# ignored (never build/ or a previous package build).
mkdir -p "$work/mpicheck-src"
if [ -d "$src/.git" ] && command -v git >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar cf - 2>/dev/null) |
        (cd "$work/mpicheck-src" && tar xf -)
else
    (cd "$src" && tar cf - --exclude=./build --exclude='./debian/build-*' --exclude='./debian/tmp' .) |
        (cd "$work/mpicheck-src" && tar xf -)
fi

# 1. The build, unit tests included (debian/rules: make check-unit).
if (cd "$work/mpicheck-src" && DEB_BUILD_OPTIONS=parallel=2 timeout 1200 dpkg-buildpackage -b -us -uc) \
        > "$work/build.out" 2>&1; then
    debs=$(cd "$work" && ls mpicheck_*.deb mpicheck-openmpi_*.deb mpicheck-mpich_*.deb 2>/dev/null | tr '\n' ' ')
    nunit=$(grep -c '^PASS: tests/unit/' "$work/build.out")
    if [ "$(echo $debs | wc -w)" -eq 3 ] && [ "$nunit" -gt 0 ]; then
        ok "dpkg-buildpackage built $debs($nunit unit test suites passed in the build, both MPIs)"
    else
        bad "dpkg-buildpackage made '$debs' and ran $nunit unit test suites (expected 3 packages and the unit tests)"
    fi
else
    bad "dpkg-buildpackage failed:"; grep -E 'error|Error|FAIL' "$work/build.out" | head -20; tail -15 "$work/build.out"
    echo "$pass passed, $fail failed"; exit 1
fi

# 2. lintian: no error (warnings and notes are printed, not failed).
changes=$(ls "$work"/mpicheck_*.changes 2>/dev/null | head -n1)
lintian --fail-on error "$changes" > "$work/lintian.out" 2>&1
lrc=$?
if [ "$lrc" -eq 0 ] && ! grep -q '^E: ' "$work/lintian.out"; then
    ok "lintian: no error ($(grep -c '^W: ' "$work/lintian.out") warnings)"
    grep '^W: ' "$work/lintian.out" | sed 's/^/  /'
else
    bad "lintian (exit $lrc):"; grep '^E: ' "$work/lintian.out" | head -20
fi

# 3. What each package holds.
holds() {   # holds DEB PATTERN...: every pattern matches a path dpkg -c lists
    d=$1; shift
    for pat in "$@"; do
        dpkg -c "$work"/$d 2>/dev/null | awk '{print $6}' | grep -qE "$pat" || { echo "$d lacks $pat"; return 1; }
    done
}
if m=$(holds 'mpicheck_*.deb' '^\./usr/bin/mpicheck$' '^\./usr/include/mpicheck\.h$' \
            '^\./usr/share/man/man1/mpicheck\.1\.gz$' '^\./usr/share/doc/mpicheck/usage\.md' \
            '^\./usr/share/doc/mpicheck/examples/demo_bugs\.c' &&
       holds 'mpicheck-openmpi_*.deb' '^\./usr/lib/[^/]+/mpicheck/openmpi/libmpicheck\.so$' \
            '^\./usr/lib/[^/]+/pkgconfig/mpicheck-openmpi\.pc$' &&
       holds 'mpicheck-mpich_*.deb' '^\./usr/lib/[^/]+/mpicheck/mpich/libmpicheck\.so$' \
            '^\./usr/lib/[^/]+/pkgconfig/mpicheck-mpich\.pc$'); then
    ok "the packages hold the launcher, header, man page, docs and demo (mpicheck) and each MPI's library and pkg-config file"
else
    bad "package contents: $m"
fi

# 4. Installed with dpkg, used from the installed paths only.
if dpkg -i "$work"/mpicheck_*.deb "$work"/mpicheck-openmpi_*.deb "$work"/mpicheck-mpich_*.deb > "$work/install.out" 2>&1; then
    installed=1
    ok "dpkg -i installed the three packages"
else
    installed=1
    bad "dpkg -i failed:"; tail -10 "$work/install.out"
    echo "$pass passed, $fail failed"; exit 1
fi
run_dir="$work/run"; mkdir -p "$run_dir"
clean_env="env -u MPICHECK_INTERNAL_LIB_OPENMPI -u MPICHECK_INTERNAL_LIB_MPICH -u MPICHECK_DIR PATH=/usr/bin:/bin:/usr/sbin:/sbin"
for f in openmpi mpich; do
    command -v "mpicc.$f" >/dev/null 2>&1 || { echo "note: mpicc.$f is not installed: its package is not run"; continue; }
    extra=""; [ "$f" = openmpi ] && extra=--oversubscribe
    "mpicc.$f" -g -O0 -o "$run_dir/demo.$f" /usr/share/doc/mpicheck/examples/demo_bugs.c 2> "$run_dir/cc.$f" ||
        { bad "the installed demo does not compile with mpicc.$f:"; tail -5 "$run_dir/cc.$f"; continue; }
    (cd "$run_dir" && $clean_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout -k 5 180 /usr/bin/mpicheck --timeout=5 --report="$run_dir/demo.$f.json" -- $extra -np 2 "$run_dir/demo.$f" \
        > "$run_dir/demo.$f.out" 2> "$run_dir/demo.$f.err")
    rc=$?
    n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['findings']))" "$run_dir/demo.$f.json" 2>/dev/null)
    if [ "$rc" -eq 3 ] && [ "${n:-0}" -gt 0 ]; then
        ok "/usr/bin/mpicheck -np 2 on the installed demo built with mpicc.$f: exit 3, $n findings in the report"
    else
        bad "/usr/bin/mpicheck -np 2 on the demo ($f): exit $rc, findings '${n:-none}'"; tail -10 "$run_dir/demo.$f.err"
    fi
    # A program built with the installed pkg-config file and header: the
    # checker linked in, its client requests in effect (a region switched
    # off reports nothing there: tests/client/client_requests.c).
    pc=$(pkg-config --cflags --libs "mpicheck-$f" 2>&1) || { bad "pkg-config mpicheck-$f: $pc"; continue; }
    # shellcheck disable=SC2086
    "mpicc.$f" -g -o "$run_dir/client.$f" "$src/tests/client/client_requests.c" $pc 2> "$run_dir/cc2.$f" ||
        { bad "tests/client/client_requests.c does not build with pkg-config mpicheck-$f ($pc):"; tail -5 "$run_dir/cc2.$f"; continue; }
    (cd "$run_dir" && $clean_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        timeout -k 5 180 /usr/bin/mpicheck --report="$run_dir/client.$f.json" -- $extra -np 2 "$run_dir/client.$f" \
        > "$run_dir/client.$f.out" 2> "$run_dir/client.$f.err")
    rc=$?
    if [ "$rc" -eq 3 ] && grep -q '^running=1$' "$run_dir/client.$f.out" && python3 - "$run_dir/client.$f.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
bm = [x for x in f if x["class"] == "buffer-modified"]
shown = [x for x in bm if not x.get("suppressed")]
hidden = [x for x in bm if x.get("suppressed")]
sys.exit(0 if len(shown) == 1 and shown[0]["message"].endswith("phase: solver") and hidden else 1)
PY
    then
        ok "a program built with \`pkg-config --cflags --libs mpicheck-$f\` ($pc) runs checked under /usr/bin/mpicheck; its switched-off region reports nothing"
    else
        bad "the pkg-config-built client ($f): exit $rc"; tail -10 "$run_dir/client.$f.err"
    fi
done

# 5. Purged: nothing of it left.
if dpkg --purge mpicheck-openmpi mpicheck-mpich mpicheck > "$work/purge.out" 2>&1; then
    installed=0
    left=""
    for p in /usr/bin/mpicheck /usr/include/mpicheck.h /usr/share/doc/mpicheck; do [ -e "$p" ] && left="$left $p"; done
    [ -z "$(ls -d /usr/lib/*/mpicheck 2>/dev/null)" ] || left="$left $(ls -d /usr/lib/*/mpicheck)"
    if [ -z "$left" ]; then ok "dpkg --purge removed everything"; else bad "left after purge:$left"; fi
else
    bad "dpkg --purge failed:"; tail -5 "$work/purge.out"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
