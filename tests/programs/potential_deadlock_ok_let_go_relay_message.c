/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: a rank the model of synchronous sends no longer follows passes
 * that on with its messages (MC_ENV_OFF; docs/design.md, "Sends let go
 * without their acknowledgment"). Rank 0 sends S to rank 1 (rank 1
 * computes: S is let go), M to rank 2, then calls MPI_Barrier. Rank 2
 * looks for M with MPI_Iprobe (which ends the model's following of rank 2)
 * and sends what it found to rank 1 with MPI_Send, receives M, and calls
 * MPI_Barrier. Rank 1 computes, receives rank 2's answer with a blocking
 * MPI_Recv, and by it either calls MPI_Barrier and then receives S, or
 * receives S first.
 *
 * Why no finding: with synchronous sends M does not exist before rank 1
 * receives S, so rank 2 finds nothing, and rank 1 receives S before the
 * barrier: the program completes. In this run rank 2 finds M, and rank 1
 * takes the other path, which synchronous sends never open.
 *
 * How this fails without the rule: rank 1, still followed, learns at the
 * barrier that rank 0 entered it only after S, and its receive of S after
 * the barrier "closes a cycle".
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, x = 0, found = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&a, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 2) {
        usleep(300000);
        for (int k = 0; k < 10 && !found; k++) {
            MPI_Iprobe(0, 2, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
            if (!found)
                usleep(10000);
        }
        MPI_Send(&found, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Recv(&found, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (found) {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return rank == 0 || x == 1 ? 0 : 1;
}
