/* EXPECT: OK  NP: 2 */
/*
 * Checks: the functions the standard allows before MPI_Init and after
 * MPI_Finalize are not call-order errors; no finding expected.
 *
 * MPI_INITIALIZED, MPI_FINALIZED, MPI_GET_VERSION and MPI_GET_LIBRARY_VERSION
 * may be called at any time, before initialization and after finalization
 * (MPI-3.1 sec. 8.7 and 8.1.1; MPI_GET_LIBRARY_VERSION exists since MPI-3.0). MPI-4.0 adds more (MPI_Error_class, MPI_Error_string, MPI_Info_*,
 * MPI_Session_*, ...); they are left out here because MPICH 4.0 and Open MPI
 * 4.1 do not all implement that part of MPI-4.0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void query(const char *when, int expect_init, int expect_final)
{
    int initialized = -1, finalized = -1, version = 0, subversion = 0, len = 0;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];

    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(lib, &len);
    if (initialized != expect_init || finalized != expect_final || version < 3 ||
        len <= 0 || len >= MPI_MAX_LIBRARY_VERSION_STRING) {
        fprintf(stderr, "%s: initialized %d finalized %d version %d.%d len %d\n",
                when, initialized, finalized, version, subversion, len);
        /* cannot MPI_Abort outside MPI_Init..MPI_Finalize */
        _Exit(1);
    }
}

int main(int argc, char **argv)
{
    int rank;

    query("before MPI_Init", 0, 0);

    MPI_Init(&argc, &argv);
    query("between MPI_Init and MPI_Finalize", 1, 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();

    query("after MPI_Finalize", 1, 1);
    if (rank == 0)
        printf("call_order_ok_pre_post: done\n");
    return 0;
}
