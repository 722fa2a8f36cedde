/* EXPECT: OK  NP: 2 */
/*
 * Checks: nonblocking exchanges in which every message is received, plus a
 * receive that never matches and is cancelled. Each of ranks 0 and 1 first
 * posts an MPI_Irecv with tag 99, which the peer never sends; then the ranks
 * exchange 5 rounds of 3 ints with MPI_Isend/MPI_Irecv/MPI_Waitall; then each
 * cancels its tag-99 receive with MPI_Cancel, completes it with MPI_Wait and
 * checks MPI_Test_cancelled.
 *
 * Why it is correct: every message sent is matched by a receive. A cancelled
 * receive still has to be completed (MPI_Wait), after which it either
 * received a message or was cancelled, never both (MPI-3.1 sec. 3.8.4); with
 * no message, a pending receive is always cancellable. Nothing is lost.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, peer, it, k, cancelled = 0, bad = 0, never = 0, out[3], in[3];
    MPI_Request never_req, req[2];
    MPI_Status st, sts[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;

    if (rank < 2) {
        MPI_Irecv(&never, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &never_req);
        for (it = 0; it < 5; it++) {
            for (k = 0; k < 3; k++)
                out[k] = 100 * rank + 10 * it + k;
            MPI_Irecv(in, 3, MPI_INT, peer, it, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(out, 3, MPI_INT, peer, it, MPI_COMM_WORLD, &req[1]);
            MPI_Waitall(2, req, sts);
            for (k = 0; k < 3; k++)
                bad += in[k] != 100 * peer + 10 * it + k;
        }
        MPI_Cancel(&never_req);
        MPI_Wait(&never_req, &st);
        MPI_Test_cancelled(&st, &cancelled);
        if (bad || !cancelled)
            printf("rank %d: %d wrong values, cancelled %d\n", rank, bad, cancelled);
    }

    MPI_Finalize();
    return 0;
}
