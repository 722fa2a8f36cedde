/* EXPECT: potential-deadlock  NP: 2  MODE: strict  TIMEOUT: 600  SAYS: rank+0+in+MPI_Send+(potential_deadlock_send_stream.c:36)|MPI_Send(buf=|count=3, */
/*
 * Checks: a potential deadlock whose send is one of a stream (consecutive
 * MPI_Send calls to one destination with one tag), which strict mode lets
 * go on before its acknowledgment and waits for at the program's next
 * other call (p2p/stream.c). Rank 0 sends three messages to rank 1 (counts
 * 1, 2 and 3, one line each), then receives from rank 1; rank 1 receives
 * two, sends to rank 0, then receives the third.
 *
 * Why a warning: MPI buffers the small messages, so the program completes;
 * with MPI_Ssend semantics rank 0 would wait in its third MPI_Send for a
 * receive that rank 1 posts only after its own MPI_Send, which waits for
 * rank 0's receive.
 *
 * What it guards: the report names the third send (its line and count=3),
 * which had returned to the program when the wait for its receive began:
 * the call and stack kept when it was made, not those of MPI_Recv. The
 * timeout is 600 s and the run is killed after 120 s, so only the early
 * verdict passes.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, out[3] = {1, 2, 3}, in[3] = {0, 0, 0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        /* The first waits for its receive in its own call; the next two go
         * on at once (their receives are awaited at MPI_Recv). */
        MPI_Send(out, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(out, 2, MPI_INT, 1, 0, MPI_COMM_WORLD);
        /* with MPI_Ssend semantics rank 0 waits here forever */
        MPI_Send(out, 3, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(in, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(in, 3, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (in[2] != 3) {
            fprintf(stderr, "TEST FAILED: third message holds %d\n", in[2]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Finalize();
    return 0;
}
