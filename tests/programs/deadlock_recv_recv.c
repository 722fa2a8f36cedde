/* EXPECT: deadlock  NP: 2 */
/*
 * Checks: the classic receive-receive deadlock. Ranks 0 and 1 each call a
 * blocking MPI_Recv from the other before sending anything.
 *
 * Why it is an error: MPI_Recv returns only once a matching message has been
 * received (MPI-3.1 sec. 3.2.4). Each rank's send comes after its own
 * receive, so neither message is ever sent and both ranks wait forever,
 * whatever buffering the library has. Run plainly, the program hangs.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, peer, out, in = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    out = 100 + rank;

    if (rank < 2) {
        /* BUG: both ranks receive first */
        MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
