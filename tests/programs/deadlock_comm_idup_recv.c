/* EXPECT: deadlock  NP: 2  TIMEOUT: 1 */
/*
 * Checks: a deadlock on a communicator made by MPI_Comm_idup (whose shadow
 * the checker copies without blocking, and waits for at its first use):
 * both ranks receive from each other before either sends.
 *
 * Why it is an error: neither receive can be matched; the program hangs
 * with every MPI library.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, buf = 0;
    MPI_Comm c;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_idup(MPI_COMM_WORLD, &c, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Recv(&buf, 1, MPI_INT, 1 - rank, 0, c, MPI_STATUS_IGNORE);
    MPI_Send(&buf, 1, MPI_INT, 1 - rank, 0, c);
    MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}
