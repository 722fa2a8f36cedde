/* EXPECT: OK  NP: 2  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: strict mode's model of synchronous sends (docs/design.md, "Sends
 * let go without their acknowledgment") does not judge a path that only
 * the let-go sends opened. Rank 0 sends S (tag 1) and then M (tag 2) to
 * rank 1; rank 1 computes, posts MPI_Irecv of M, tests it a few times,
 * then receives S and waits for M.
 *
 * Why no finding: with MPI_Ssend semantics M does not exist before rank 1
 * receives S, so the tests find nothing, rank 1 receives S, and M follows:
 * the program completes. In this run rank 0's send of S is let go (rank 1
 * computes), M comes at once, and MPI_Test completes it before S is
 * received.
 *
 * How this fails without the rule: rank 1 learns from M (the data) that
 * it depends on S from M's completion, and its receive of S, posted after,
 * "closes a cycle" that synchronous sends never form here (a false
 * potential deadlock with the library of 1e76849 on both MPIs). A test or
 * a choice among requests that answers "completed" now ends the model's
 * following of the rank.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, s = 1, m = 2, x = 0, y = 0, flag = 0;
    MPI_Request r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&s, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&m, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);     /* computing: rank 0's send of S is let go */
        MPI_Irecv(&y, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &r);
        for (int k = 0; k < 10 && !flag; k++) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                usleep(10000);
        }
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (!flag)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return rank != 1 || (x == 1 && y == 2) ? 0 : 1;
}
