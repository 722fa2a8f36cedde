/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: a member the model of synchronous sends no longer follows ends
 * the following of every member of a blocking collective (src/p2p/
 * synccoll.c; docs/design.md, "Sends let go without their
 * acknowledgment"). Rank 0 sends S to rank 1 (rank 1 computes: S is let
 * go), M to rank 2, then calls MPI_Barrier. Rank 2 looks for M with
 * MPI_Iprobe (which ends the model's following of rank 2) and gives what
 * it found to an MPI_Allreduce with rank 1; rank 1 by its result either
 * calls MPI_Barrier and then receives S, or receives S first. (Found by a
 * review that wrote programs against the model.)
 *
 * Why no finding: with synchronous sends M does not exist before rank 1
 * receives S, which it does only after the MPI_Allreduce: rank 2 finds
 * nothing, the result is 0, and rank 1 receives S before the barrier.
 *
 * How this fails without the rule: rank 1, still followed, takes the path
 * synchronous sends never open, and its receive of S after the barrier
 * "closed a cycle" (a false potential deadlock with the library of 30e8b0a
 * on both MPIs).
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, x = 0, flag = 0, res = 0;
    MPI_Comm sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank ? 0 : MPI_UNDEFINED, rank, &sub);
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&a, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 2) {
        usleep(300000);
        for (int k = 0; k < 10 && !flag; k++) {
            MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                usleep(10000);
        }
        MPI_Allreduce(&flag, &res, 1, MPI_INT, MPI_MAX, sub);
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Allreduce(&flag, &res, 1, MPI_INT, MPI_MAX, sub);
        if (res) {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Finalize();
    return rank == 0 || x == 1 ? 0 : 1;
}
