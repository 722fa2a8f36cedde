/* EXPECT: deadlock  NP: 3  CAUSE: source */
/*
 * Checks: a deadlock that is really a receive from the wrong rank is
 * reported with its likely cause. Rank 2 sends to rank 1 with tag 4 and
 * waits for an answer; rank 1 waits for tag 4 from rank 0, which waits for
 * rank 1. The report adds "rank 2 sent a message with tag 4 on
 * MPI_COMM_WORLD that no receive took, and this receive waits for rank 0:
 * a source mismatch?".
 *
 * Why it is an error: a receive from rank 0 matches only rank 0's
 * messages (MPI-4.0 sec. 3.5); the three ranks wait forever.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        MPI_Send(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);   /* the bug: rank 2 sends */
        MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
