/* EXPECT: call-order  NP: 2 */
/*
 * Checks: MPI_Barrier called after MPI_Finalize.
 *
 * Why it is an error: once MPI_Finalize has returned, no MPI procedure may be
 * called except MPI_Initialized, MPI_Finalized, MPI_Get_version,
 * MPI_Get_library_version and the MPI_T_ tool interface (MPI-3.1 sec. 8.7;
 * MPI-4.0 adds a few more in its chapter on the World Model, sec. 11.2).
 *
 * The program is otherwise correct. Both libraries abort the process on the
 * late call (or return an error); the checker reports before the real call,
 * so the report holds the finding whatever happens next, and nothing waits on
 * this process any more, so the job cannot hang.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();

    rc = MPI_Barrier(MPI_COMM_WORLD);       /* BUG: after MPI_Finalize */
    printf("rank %d: MPI_Barrier after MPI_Finalize returned %d\n", rank, rc);
    return 0;
}
