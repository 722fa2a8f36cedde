/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks that strict mode does not hang a program MPI runs to the end: rank 0
 * MPI_Send's a small message to rank 1, both call MPI_Allreduce, and rank 1
 * receives only after it.
 *
 * The program is unsafe (MPI-3.1 sec. 3.5: it completes only because MPI
 * buffers the send), but the checker does not see into collectives yet
 * (issue 4), so it cannot prove the potential deadlock; after two timeouts
 * without a verdict it stops waiting for the acknowledgment, reports nothing,
 * and the program finishes. When collectives answer the detector, this
 * program's verdict becomes potential-deadlock.
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
