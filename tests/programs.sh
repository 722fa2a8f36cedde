#!/bin/sh
# Runs every MPI test program of tests/programs under the mpicheck launcher
# against the MPI library this build directory was configured for. With the
# official SARIF 2.1.0 schema at hand (fetched by scripts/check with the SARIF
# Multitool, see tests/sarif.sh), every run's SARIF log is checked too.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}
flavor=${MPI_FLAVOR:?}
# The launcher would find the library from its own location too; naming it
# keeps the test independent of where the build directory lives.
case $flavor in
    openmpi) MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    mpich) MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
sarif_schema="${MC_SARIF_TOOL_DIR:-$src/build/tools/sarif-multitool}/package/sarif-2.1.0.json"
if [ -s "$sarif_schema" ]; then
    set -- --sarif-schema "$sarif_schema"
else
    echo "SKIP SARIF logs: no SARIF 2.1.0 schema at $sarif_schema (./scripts/check fetches it); the programs' SARIF logs are not checked"
    set --
fi
# mpicheck refuses MPICHECK_* variables it does not know: not passed on.
jobs=${MPICHECK_TEST_JOBS:-2}
unset MPICHECK_TEST_JOBS
# The Fortran programs use the MPI's Fortran wrapper of the same name
# (mpicc.openmpi -> mpif90.openmpi); run_programs.py skips them without it.
mpifort=${MPIFORT:-$(echo "${MPICC:?}" | sed 's/mpicc/mpif90/')}
exec "${PYTHON:-python3}" "$src/tests/run_programs.py" --flavor "$flavor" --mpicc "${MPICC:?}" --mpifort "$mpifort" \
    --mpicheck "$b/src/mpicheck" --builddir "$b/tests/programs-bin" \
    --schema "$src/docs/report-schema.json" "$@" --jobs "$jobs"
