# shellcheck shell=bash
# Shared by scripts/demo and scripts/check: install what is missing, then
# configure and build one build directory per installed MPI library.
# Sourced, not run.

MC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MC_PACKAGES="build-essential autoconf automake libtool pkg-config python3 python3-jsonschema
openmpi-bin libopenmpi-dev mpich libmpich-dev libunwind-dev libdw-dev libjansson-dev libxxhash-dev
uthash-dev check graphviz python3-mpi4py groff-base gfortran iproute2"

mc_say() { printf 'mpicheck-setup: %s\n' "$*" >&2; }

mc_install_deps() {
    local missing=() p
    for p in $MC_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    mc_apt_install "${missing[@]}"
}

mc_apt_install() {   # mc_apt_install PACKAGE...: apt-get install, as root or with sudo
    local missing=("$@")
    if ! command -v apt-get >/dev/null 2>&1; then
        mc_say "missing packages (${missing[*]}) and no apt-get: install them with your package manager"
        return 1
    fi
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo="sudo"
        else
            mc_say "missing packages; run this as root, then run me again:"
            echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
            return 1
        fi
    fi
    mc_say "installing: ${missing[*]}"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        { mc_say "apt-get failed"; return 1; }
}

# Debian's chromium, headless, loads the HTML report in tests/html.sh.
mc_browser() {
    command -v chromium >/dev/null 2>&1 && return 0
    mc_apt_install chromium
}

# The MPI libraries installed here, as flavor names.
mc_flavors() {
    local f
    for f in openmpi mpich; do
        command -v "mpicc.$f" >/dev/null 2>&1 && printf '%s\n' "$f"
    done
}

mc_build() {   # mc_build FLAVOR: configure (once) and make build/FLAVOR
    local flavor=$1 dir="$MC_ROOT/build/$1"
    if [ ! -x "$MC_ROOT/configure" ] || [ "$MC_ROOT/configure.ac" -nt "$MC_ROOT/configure" ] ||
       [ "$MC_ROOT/Makefile.am" -nt "$MC_ROOT/Makefile.in" ]; then
        mc_say "autoreconf"
        (cd "$MC_ROOT" && autoreconf -fi >/dev/null 2>&1) || { mc_say "autoreconf failed"; (cd "$MC_ROOT" && autoreconf -fi); return 1; }
    fi
    mkdir -p "$dir"
    if [ ! -f "$dir/Makefile" ] || [ "$MC_ROOT/configure" -nt "$dir/Makefile" ]; then
        mc_say "configure ($flavor)"
        # The system python3 has the packages installed above (jsonschema,
        # used to validate every report); a python3 earlier in PATH may not.
        local py=""
        [ -x /usr/bin/python3 ] && py="PYTHON=/usr/bin/python3"
        (cd "$dir" && "$MC_ROOT/configure" --with-mpicc="mpicc.$flavor" --enable-werror --prefix="$dir/install" $py >configure.out 2>&1) ||
            { tail -30 "$dir/configure.out" >&2; mc_say "configure failed for $flavor (build/$flavor/configure.out)"; return 1; }
    fi
    mc_say "make ($flavor)"
    make -C "$dir" -j"$(nproc 2>/dev/null || echo 2)" >"$dir/make.out" 2>&1 ||
        { tail -40 "$dir/make.out" >&2; mc_say "build failed for $flavor (build/$flavor/make.out)"; return 1; }
}

# Open MPI refuses to run as root without these; tests and the demo run as
# whoever calls them.
mc_mpi_env() {
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
}

# The SARIF Multitool, Microsoft's SARIF validator (MIT; a self-contained
# Linux binary in the npm package below), and the official SARIF 2.1.0 JSON
# schema that package ships: tests/sarif.sh validates SARIF logs with both,
# tests/run_programs.py every program's log with the schema. Fetched once
# (npm pack, bounded by a timeout) into build/tools/sarif-multitool/package/;
# returns 1 when it cannot be had. The tests look there, or in
# $MC_SARIF_TOOL_DIR.
MC_SARIF_TOOL_PKG="@microsoft/sarif-multitool-linux@5.7.0"
MC_SARIF_TOOL_DIR="$MC_ROOT/build/tools/sarif-multitool"

mc_sarif_tool() {
    local dir=$MC_SARIF_TOOL_DIR tmp tgz
    if [ -x "$dir/package/Sarif.Multitool" ] && [ -s "$dir/package/sarif-2.1.0.json" ]; then
        return 0
    fi
    if ! command -v npm >/dev/null 2>&1; then
        mc_say "npm is needed to fetch the SARIF Multitool"
        mc_apt_install npm || return 1
    fi
    mkdir -p "$MC_ROOT/build/tools" || return 1
    tmp=$(mktemp -d "$MC_ROOT/build/tools/.sarif-multitool.XXXXXX") || return 1
    mc_say "fetching $MC_SARIF_TOOL_PKG (SARIF Multitool and schema, 44 MB) with npm pack"
    if ! (cd "$tmp" && timeout -k 10 300 npm pack --loglevel=error "$MC_SARIF_TOOL_PKG" >npm.out 2>&1); then
        tail -5 "$tmp/npm.out" >&2
        mc_say "npm pack $MC_SARIF_TOOL_PKG failed or timed out"
        rm -rf "$tmp"; return 1
    fi
    tgz=$(find "$tmp" -maxdepth 1 -name '*.tgz' | head -n1)
    if [ -z "$tgz" ] || ! tar -xzf "$tgz" -C "$tmp" ||
       [ ! -f "$tmp/package/Sarif.Multitool" ] || [ ! -s "$tmp/package/sarif-2.1.0.json" ]; then
        mc_say "the $MC_SARIF_TOOL_PKG tarball lacks package/Sarif.Multitool or package/sarif-2.1.0.json"
        rm -rf "$tmp"; return 1
    fi
    chmod +x "$tmp/package/Sarif.Multitool"
    # It is a .NET program: without libicu it runs only in invariant mode.
    if ! DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 timeout 60 "$tmp/package/Sarif.Multitool" --version \
            >"$tmp/version.out" 2>&1; then
        cat "$tmp/version.out" >&2
        mc_say "the SARIF Multitool does not run on this machine"
        rm -rf "$tmp"; return 1
    fi
    if ! { rm -rf "$dir" && mkdir -p "$dir" && mv "$tmp/package" "$dir/package"; }; then
        rm -rf "$tmp"; mc_say "cannot install into $dir"; return 1
    fi
    mc_say "installed in build/tools/sarif-multitool: $(head -n1 "$tmp/version.out")"
    rm -rf "$tmp"
}
