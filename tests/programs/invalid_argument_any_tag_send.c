/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_ANY_TAG used as the tag of MPI_Send.
 *
 * Why it is an error: MPI_ANY_TAG is a wildcard for receives and probes only
 * (MPI-4.0 sec. 3.2.4); a send has no wildcard, its tag must be in
 * 0..MPI_TAG_UB (sec. 3.2.3; MPI_ERR_TAG).
 *
 * Rank 0 sends with MPI_ANY_TAG; the library rejects it (errors are returned),
 * nothing is sent, no receive is posted.
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
        rc = MPI_Send(&value, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD); /* BUG */
        printf("rank 0: MPI_Send with MPI_ANY_TAG returned %d\n", rc);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
