/* EXPECT: request-leak  NP: 2 */
/*
 * Checks: requests still allocated at MPI_Finalize.
 *  1. Rank 1 posts an MPI_Irecv that is never completed: nobody ever sends the
 *     message (tag 99) and the request is never waited on, tested, cancelled
 *     or freed.
 *  2. Rank 0 creates a persistent send with MPI_Send_init, starts it, completes
 *     it with MPI_Wait (which leaves it inactive, not freed: MPI-4.0 sec.
 *     3.9) and never calls MPI_Request_free.
 *
 * Why a warning: a completed persistent request that is not freed is a plain
 * leak (MPI_Finalize reclaims it). The pending receive is more than a leak by
 * the letter of the MPI_Finalize rules (MPI-4.0 sec. 11.2: before
 * MPI_Finalize a process must locally complete all operations it initiated), yet MPI libraries
 * finalize without trouble with an unmatched receive posted, and the
 * checker's class for a request never completed is request-leak. Both
 * libraries run this program to completion.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0, never = 0;
    MPI_Request pending, persistent;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 1) {
        /* LEAK 1: no message with tag 99 is ever sent */
        MPI_Irecv(&never, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &pending);
    }

    if (rank == 0) {
        value = 5;
        MPI_Send_init(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &persistent);
        MPI_Start(&persistent);
        MPI_Wait(&persistent, MPI_STATUS_IGNORE);
        /* LEAK 2: MPI_Request_free(&persistent) is missing */
    } else if (rank == 1) {
        MPI_Recv(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: received %d\n", value);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
