/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_Recv into a NULL buffer with count 3 of MPI_INT.
 *
 * Why it is an error: with a count > 0 of a predefined datatype the buffer
 * address is the place the data is stored (MPI-4.0 sec. 3.2.4), so it must
 * point to 3 ints; NULL does not (both libraries return MPI_ERR_BUFFER). NULL
 * is fine with count 0 (see invalid_argument_ok_p2p.c) and MPI_BOTTOM is fine
 * with a datatype built from absolute addresses (invalid_argument_ok_datatypes.c).
 *
 * Rank 0 sends 3 ints; rank 1 first receives them into NULL (the bug). The
 * library rejects that receive (errors are returned), so rank 1 then receives
 * the message properly and no message is left unreceived.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc, data[3] = {1, 2, 3}, got[3] = {0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        MPI_Send(data, 3, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        rc = MPI_Recv(NULL, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* BUG */
        printf("rank 1: MPI_Recv into NULL returned %d\n", rc);
        if (rc != MPI_SUCCESS)
            MPI_Recv(got, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
