/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: rank 0 posts MPI_Irecv(MPI_ANY_SOURCE) for a large message, then
 * enters MPI_Barrier; rank 1 sends that message with a blocking MPI_Send
 * (large enough for a rendezvous protocol in every MPI) and only then joins
 * the barrier. Rank 0 completes the receive after the barrier.
 *
 * Why it is correct: the receive is posted before the send, so the send can
 * complete (MPI-3.1 sec. 3.4, 3.7); the barrier needs rank 1, which comes
 * once its send is done. The checker holds an ANY_SOURCE receive back until
 * its envelope tells the source; if nothing posted it while rank 0 waits in
 * the barrier, rank 1's send and the barrier would wait for each other. The
 * barrier's handshake serves held-back receives while it waits.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (4 * 1024 * 1024)

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc(N);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    if (rank == 0) {
        MPI_Request req;
        MPI_Status st;
        buf[N - 1] = 0;
        MPI_Irecv(buf, N, MPI_CHAR, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&req, &st);
        if (st.MPI_SOURCE != 1 || buf[N - 1] != 42) {
            fprintf(stderr, "TEST FAILED: source %d, last byte %d\n", st.MPI_SOURCE, buf[N - 1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    } else if (rank == 1) {
        buf[N - 1] = 42;
        MPI_Send(buf, N, MPI_CHAR, 0, 4, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
