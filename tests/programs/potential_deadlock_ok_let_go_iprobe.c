/* EXPECT: OK  NP: 2  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: strict mode's model of synchronous sends (docs/design.md, "Sends
 * let go without their acknowledgment") does not judge a path chosen by
 * an MPI_Iprobe that found a message synchronous sends would not have sent
 * yet. Rank 0 sends S (tag 1), then M (tag 2) to rank 1. Rank 1 computes,
 * probes for M with MPI_Iprobe a few times; if M is there it receives M
 * and then S, otherwise S and then M. (Found by a review that wrote
 * programs against the model.)
 *
 * Why no finding: with MPI_Ssend semantics M does not exist before rank 1
 * receives S, so the probe finds nothing and rank 1 receives S, then M;
 * with any buffering either order completes. In this run S is let go
 * (rank 1 computes), M comes at once, and the probe finds it.
 *
 * How this fails without the rule: rank 1 received M first, learned from
 * it that it depends on S, and its receive of S "closed a cycle" (a false
 * potential deadlock with the library of 1e76849 on both MPIs). A
 * nonblocking probe that finds a message now stops the model following
 * the rank.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, b = 2, x = 0, y = 0, flag = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        for (int k = 0; k < 10 && !flag; k++) {
            MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                usleep(10000);
        }
        if (flag) {
            MPI_Recv(&y, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&y, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    MPI_Finalize();
    return rank != 1 || (x == 1 && y == 2) ? 0 : 1;
}
