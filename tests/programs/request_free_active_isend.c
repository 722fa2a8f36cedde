/* EXPECT: request-free-active  NP: 2  RANKS: 0 */
/*
 * Checks: the pattern of the MPI standard's advice to users on
 * MPI_Request_free (seed 000): rank 0 starts an MPI_Isend, frees its
 * request at once, and takes rank 1's reply as the sign that the send is
 * done. The same with a started persistent send (MPI_Send_init,
 * MPI_Start, MPI_Request_free).
 *
 * Why a warning: the standard allows freeing an active request (MPI-4.0
 * sec. 3.7.3), but the program can no longer learn when the send buffer
 * may be reused (a reply does not prove that MPI is done with it), and an
 * error in the send can only end the job. The program runs correctly: the
 * checker finishes the freed sends in the background, as MPI does.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x[4] = {1, 2, 3, 4}, y[4], reply = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(x, 4, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        if (r != MPI_REQUEST_NULL)
            printf("TEST FAILED: MPI_Request_free left the handle set\n");
        MPI_Recv(&reply, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send_init(x, 4, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Request_free(&r);
        MPI_Recv(&reply, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(y, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (y[3] != 4)
            printf("TEST FAILED: received %d, not 4\n", y[3]);
        MPI_Send(&reply, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(y, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&reply, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
