# shellcheck shell=bash
# Shared by scripts/demo and scripts/check: install what is missing, then
# configure and build one build directory per installed MPI library.
# Sourced, not run.

MC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MC_PACKAGES="build-essential autoconf automake libtool pkg-config python3 python3-jsonschema
openmpi-bin libopenmpi-dev mpich libmpich-dev libunwind-dev libdw-dev libjansson-dev
uthash-dev check graphviz"

mc_say() { printf 'mpicheck-setup: %s\n' "$*" >&2; }

mc_install_deps() {
    local missing=() p
    for p in $MC_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
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
        (cd "$dir" && "$MC_ROOT/configure" --with-mpicc="mpicc.$flavor" --prefix="$dir/install" $py >configure.out 2>&1) ||
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
