/* EXPECT: potential-deadlock  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: a potential deadlock is proven a few milliseconds into the stall,
 * not after --timeout (docs/design.md, "Strict mode without long stalls").
 * Rank 0 MPI_Send's one int to rank 1 and then joins an MPI_Barrier; rank 1
 * joins the barrier first and receives after it (hpcc's pattern); rank 2
 * sends nothing and only joins the barrier.
 *
 * Why a warning: MPI buffers the small message, so the program completes;
 * with MPI_Ssend semantics rank 0 would wait in MPI_Send for a receive that
 * rank 1 posts only after the barrier rank 0 never reaches.
 *
 * How this fails when the early probe is broken: the timeout is 600 s and
 * every test run is killed after 120 s, so only a verdict made before the
 * timeout lets the run end with the warning.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, out = 7, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&out, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);   /* completes only thanks to buffering */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Recv(&in, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (in != 7) {
            fprintf(stderr, "TEST FAILED: rank 1 received %d\n", in);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Finalize();
    return 0;
}
