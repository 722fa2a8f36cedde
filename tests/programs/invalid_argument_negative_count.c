/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: a negative count in MPI_Send.
 *
 * Why it is an error: the count of a send is a non-negative integer (MPI-4.0
 * sec. 3.2.1/3.2.2); a negative count is erroneous and the library class for
 * it is MPI_ERR_COUNT.
 *
 * Rank 0 sends count -1 to rank 1. Errors are returned (MPI_ERRORS_RETURN),
 * the library rejects the call and sends nothing, so rank 1 posts no receive;
 * both ranks then meet in a barrier and finalize.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc, buf[4] = {1, 2, 3, 4};

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        rc = MPI_Send(buf, -1, MPI_INT, 1, 0, MPI_COMM_WORLD);   /* BUG: count < 0 */
        printf("rank 0: MPI_Send with count -1 returned %d\n", rc);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
