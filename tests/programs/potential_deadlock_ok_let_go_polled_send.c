/* EXPECT: OK  NP: 2  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: strict mode's model of synchronous sends (docs/design.md, "Sends
 * let go without their acknowledgment") does not date a send's completion
 * from an MPI_Test that synchronous sends would have answered "not yet".
 * Rank 1 sends S to rank 0 (rank 0 computes: S is let go), then receives
 * T. Rank 0 computes, MPI_Isends T, polls it with MPI_Test (the flag is
 * not used), receives S, then waits for T. (Found by a review that wrote
 * programs against the model.)
 *
 * Why no finding: T is nonblocking, so rank 0 reaches its receive of S
 * whatever the tests say; S completes, rank 1 posts its receive of T, and
 * MPI_Wait returns: the program completes with synchronous sends.
 *
 * How this fails without the rule: rank 1's receive of T is posted while
 * it depends on S, so its notice makes rank 0 depend on S from T's
 * completion, which the test gave; rank 0's receive of S, posted after,
 * "closed a cycle" (a false potential deadlock with the library of
 * 30e8b0a on both MPIs). Any test or choice that answers "completed" now
 * ends the model's following of the rank.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, x = 0, flag = 0;
    MPI_Request r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
        usleep(300000);
        MPI_Isend(&a, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
        for (int k = 0; k < 20; k++) {
            usleep(10000);
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        }
        MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (!flag)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return rank > 1 || x == 1 ? 0 : 1;
}
