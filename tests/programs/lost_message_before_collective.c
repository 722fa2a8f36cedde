/* EXPECT: lost-message  NP: 2  TIMEOUT: 1 */
/*
 * Checks: a message nobody receives, sent just before a collective (rank 0
 * MPI_Send to rank 1, then both MPI_Barrier; rank 1 never receives).
 *
 * Why it is reported: the message is never matched by a receive before
 * MPI_Finalize (a lost message, warning). In strict mode rank 0's send waits
 * for a receive that never comes while rank 1 sits in MPI_Barrier, where the
 * deadlock detector cannot see it yet: after two timeouts without a verdict
 * the checker stops waiting rather than hang a program that MPI runs to the
 * end, and the lost message is reported at MPI_Finalize.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    double d[10] = {0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(d, 10, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD); /* BUG: never received */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
