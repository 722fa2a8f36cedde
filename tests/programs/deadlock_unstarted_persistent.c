/* EXPECT: deadlock  NP: 2  TIMEOUT: 1  CAUSE: start */
/*
 * Checks: rank 0 makes a persistent send to rank 1 with MPI_Send_init but
 * never starts it, and waits for rank 1's reply; rank 1 waits for the
 * message.
 *
 * Why it is an error: a persistent request sends nothing until MPI_Start
 * (MPI-4.0 sec. 3.9): rank 1 waits for a message that is never sent, and
 * rank 0 for a reply that comes only after it. Run plainly, the program
 * hangs. The deadlock report names the likely cause: rank 0's persistent
 * send that was never started.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &req);
        /* the bug: MPI_Start(&req) is missing */
        MPI_Recv(&y, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&y, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
