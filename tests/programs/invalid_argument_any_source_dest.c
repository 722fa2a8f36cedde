/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_ANY_SOURCE used as the destination of MPI_Send.
 *
 * Why it is an error: MPI_ANY_SOURCE is a wildcard for the source of a
 * receive or probe (MPI-4.0 sec. 3.2.4); a send's dest must be a rank of the
 * communicator or MPI_PROC_NULL (MPI_ERR_RANK). Note that the numeric values
 * differ between libraries (Open MPI: MPI_ANY_SOURCE -1, MPI_PROC_NULL -2;
 * MPICH: MPI_ANY_SOURCE -2, MPI_PROC_NULL -1), so a checker must compare
 * against the constants, never against a number.
 *
 * Rank 0 sends to MPI_ANY_SOURCE; the library rejects it (errors are
 * returned), nothing is sent, no receive is posted.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc, value = 7;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        rc = MPI_Send(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD); /* BUG */
        printf("rank 0: MPI_Send to MPI_ANY_SOURCE returned %d\n", rc);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
