/* EXPECT: deadlock  NP: 2  CAUSE: tag */
/*
 * Checks: a deadlock that is really a tag mismatch is reported with its
 * likely cause. Rank 0 sends with tag 1 and then waits for an answer; rank
 * 1 waits for tag 2 from rank 0, so neither ever moves (strict mode: the
 * send waits for its receive). The report names the cycle and adds "rank
 * 0 sent a message with tag 1 on MPI_COMM_WORLD that no receive took, and
 * this receive waits for tag 2 from it: a tag mismatch?".
 *
 * Why it is an error: a receive matches only a message with its tag
 * (MPI-4.0 sec. 3.5); both ranks wait forever.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);   /* the bug: tag 2 */
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
