#!/bin/sh
# Runs every MPI test program of tests/programs under the mpicheck launcher
# against the MPI library this build directory was configured for.
set -u
src=${top_srcdir:?}; b=${top_builddir:?}
flavor=${MPI_FLAVOR:?}
# The launcher would find the library from its own location too; naming it
# keeps the test independent of where the build directory lives.
case $flavor in
    openmpi) MPICHECK_INTERNAL_LIB_OPENMPI="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_OPENMPI ;;
    mpich) MPICHECK_INTERNAL_LIB_MPICH="$b/src/.libs/libmpicheck.so"; export MPICHECK_INTERNAL_LIB_MPICH ;;
esac
exec "${PYTHON:-python3}" "$src/tests/run_programs.py" --flavor "$flavor" --mpicc "${MPICC:?}" \
    --mpicheck "$b/src/mpicheck" --builddir "$b/tests/programs-bin" \
    --schema "$src/docs/report-schema.json" --jobs "${MPICHECK_TEST_JOBS:-2}"
