/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: a test that completes a nonblocking collective ends the model of
 * synchronous sends' following of the rank, like any test that answers
 * "completed" (docs/design.md, "Sends let go without their
 * acknowledgment"). Rank 0 sends S to rank 1 (rank 1 computes: S is let
 * go), then calls MPI_Ibarrier and MPI_Wait, then MPI_Barrier. Rank 1
 * computes, calls MPI_Ibarrier and tests it a few times: if it completed,
 * it calls MPI_Barrier and then receives S; otherwise it receives S first.
 * (Found by a review that wrote programs against the model.)
 *
 * Why no finding: with synchronous sends rank 0 enters the MPI_Ibarrier
 * only after rank 1 received S, which rank 1 does only after its tests:
 * they find nothing, and rank 1 receives S before the barrier.
 *
 * How this fails without the rule: rank 1 takes the path synchronous sends
 * never open, and its receive of S after the barrier "closed a cycle" (a
 * false potential deadlock with the library of 30e8b0a on both MPIs).
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, x = 0, flag = 0;
    MPI_Request r;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        for (int k = 0; k < 20 && !flag; k++) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                usleep(10000);
        }
        if (flag) {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return rank != 1 || x == 1 ? 0 : 1;
}
