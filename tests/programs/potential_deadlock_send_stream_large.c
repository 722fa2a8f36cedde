/* EXPECT: potential-deadlock  NP: 2  MODE: strict  TIMEOUT: 600  SAYS: rank+0+in+MPI_Send+(potential_deadlock_send_stream_large.c:37)|count=2, */
/*
 * Checks: in a stream of MPI_Send calls to one destination (strict mode
 * lets the second go on before its receive is posted, p2p/stream.c), a
 * large message that MPI cannot take before its receive is posted. Rank 0
 * sends one int, two ints, then 1 MiB to rank 1, then receives from rank
 * 1; rank 1 receives the first message, sends one int to rank 0, then
 * receives the other two.
 *
 * Why a warning: MPI buffers the small messages, so the program completes;
 * with MPI_Ssend semantics rank 0 would wait in its second MPI_Send
 * (count=2) for a receive that rank 1 posts only after its own MPI_Send,
 * which waits for rank 0's receive.
 *
 * What it guards: the third send waits for its receive in MPI itself
 * (rendezvous); before it does, the rank waits for the second send's
 * receive, where synchronous sends would have stopped it, so the report
 * names the second send. The first version waited in the third send's
 * transfer and named it. The timeout is 600 s and the run is killed after
 * 120 s, so only the early verdict passes.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (1 << 18)   /* ints: 1 MiB, above every eager limit */

int main(int argc, char **argv)
{
    int rank, small[2] = {1, 2}, in[2] = {0, 0};
    int *big = calloc(BIG, sizeof *big);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(small, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(small, 2, MPI_INT, 1, 0, MPI_COMM_WORLD);     /* with MPI_Ssend semantics: stuck here */
        big[BIG - 1] = 42;
        MPI_Send(big, BIG, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(small, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(in, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(big, BIG, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (big[BIG - 1] != 42) {
            fprintf(stderr, "TEST FAILED: the large message ends in %d\n", big[BIG - 1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    free(big);
    MPI_Finalize();
    return 0;
}
