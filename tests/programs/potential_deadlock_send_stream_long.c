/* EXPECT: potential-deadlock  NP: 2  MODE: strict  TIMEOUT: 600  SAYS: rank+0+in+MPI_Send+(potential_deadlock_send_stream_long.c:30)|rank+1+in+MPI_Send+(potential_deadlock_send_stream_long.c:36) */
/*
 * Checks: a potential deadlock in the middle of a long stream of MPI_Send
 * calls to one destination (strict mode lets at most 64 of them go on
 * before their acknowledgments, p2p/stream.c, so this one is found while
 * the stream is still running, not at the program's next other call).
 * Rank 0 sends 200 ints one by one to rank 1, then receives one; rank 1
 * receives 100, sends one to rank 0, then receives the other 100.
 *
 * Why a warning: MPI buffers the small messages, so the program completes;
 * with MPI_Ssend semantics rank 0 would wait in its 101st MPI_Send for a
 * receive that rank 1 posts only after its own MPI_Send, which waits for
 * rank 0's receive. The timeout is 600 s and the run is killed after
 * 120 s, so only the early verdict passes.
 */
#include <mpi.h>
#include <stdio.h>

#define N 200

int main(int argc, char **argv)
{
    int rank, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < N; i++) {
            /* with MPI_Ssend semantics the 101st waits here forever */
            MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        }
        MPI_Recv(&in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        for (int i = 0; i < N / 2; i++)
            MPI_Recv(&in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        for (int i = N / 2; i < N; i++) {
            MPI_Recv(&in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (in != i) {
                fprintf(stderr, "TEST FAILED: message %d holds %d\n", i, in);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    }
    MPI_Finalize();
    return 0;
}
