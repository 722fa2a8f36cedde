/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: a negative tag in MPI_Send.
 *
 * Why it is an error: a send tag must lie in 0..MPI_TAG_UB (MPI-4.0 sec.
 * 3.2.3); negative values are reserved for MPI's own constants (MPI_ANY_TAG).
 * The value used is -5, not -1, because -1 is MPI_ANY_TAG in both Open MPI and
 * MPICH, which invalid_argument_any_tag_send.c covers on its own.
 *
 * Rank 0 sends with tag -5; the library rejects it (MPI_ERR_TAG, errors are
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
        rc = MPI_Send(&value, 1, MPI_INT, 1, -5, MPI_COMM_WORLD);   /* BUG: tag < 0 */
        printf("rank 0: MPI_Send with tag -5 returned %d\n", rc);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
