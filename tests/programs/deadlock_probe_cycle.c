/* EXPECT: deadlock  NP: 2 */
/*
 * Checks: a probe cycle. Ranks 0 and 1 each call a blocking MPI_Probe for a
 * message from the other before sending anything (to size the receive).
 *
 * Why it is an error: MPI_Probe returns only once a matching message is
 * available to be received (MPI-3.1 sec. 3.8.1), exactly like a receive that
 * does not consume it. Each rank sends only after its own probe returns, so
 * no message ever exists and both ranks wait forever. Run plainly, the
 * program hangs.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, peer, count, out[3];
    int *in;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    out[0] = out[1] = out[2] = rank;

    if (rank < 2) {
        /* BUG: both ranks wait for the peer's message before sending theirs */
        MPI_Probe(peer, 4, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        in = malloc((count > 0 ? count : 1) * sizeof(int));
        MPI_Send(out, 3, MPI_INT, peer, 4, MPI_COMM_WORLD);
        MPI_Recv(in, count, MPI_INT, peer, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(in);
    }

    MPI_Finalize();
    return 0;
}
