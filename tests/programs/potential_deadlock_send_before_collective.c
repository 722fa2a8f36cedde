/* EXPECT: potential-deadlock  NP: 2  TIMEOUT: 1 */
/*
 * Checks: rank 0 MPI_Send's a small message to rank 1, both call
 * MPI_Allreduce, and rank 1 receives only after it.
 *
 * Why it is an error: the program completes only because MPI buffers the
 * send (MPI-3.1 sec. 3.5: a program that relies on buffering is unsafe).
 * With MPI_Ssend semantics rank 0 waits in MPI_Send for rank 1's receive,
 * and rank 1 waits in MPI_Allreduce's handshake for rank 0: a cycle through
 * a collective. Strict mode reports it as a potential deadlock, then lets
 * the send go (MPI buffered it) and the program finishes.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double d[10] = {0}, s;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(d, 10, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
    MPI_Allreduce(d, &s, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Recv(d, 10, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
