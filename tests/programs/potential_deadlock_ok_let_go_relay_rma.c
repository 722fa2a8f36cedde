/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: a rank that makes an RMA window is followed no further by the
 * model of synchronous sends (docs/design.md, "Sends let go without their
 * acknowledgment"), which does not follow what one-sided communication
 * carries. Rank 0 sends S to rank 1 (rank 1 computes: S is let go), M to
 * rank 2, then calls MPI_Barrier on a communicator of ranks 0 and 1. Rank
 * 2 looks for M with MPI_Iprobe (which ends the model's following of rank
 * 2) and puts what it found into rank 1's window (MPI_Win_allocate)
 * between two fences of a window of ranks 1 and 2; rank 1 by it either calls MPI_Barrier and then
 * receives S, or receives S first. (Found by a review that wrote programs
 * against the model: a false potential deadlock with the library of
 * 3f9f250 on both MPIs.)
 *
 * Why no finding: with synchronous sends M does not exist before rank 1
 * receives S, which it does only after the fences: rank 2 finds nothing,
 * and rank 1 receives S before the barrier. The program completes.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, x = 0, flag = 0, *got = NULL;
    MPI_Comm sub, pair;
    MPI_Win win = MPI_WIN_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &sub);
    MPI_Comm_split(MPI_COMM_WORLD, rank > 0 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (rank > 0)
        MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, pair, &got, &win);
    if (got)
        *got = 0;
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&a, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
        MPI_Barrier(sub);
    } else if (rank == 2) {
        usleep(300000);
        for (int k = 0; k < 10 && !flag; k++) {
            MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                usleep(10000);
        }
        MPI_Win_fence(0, win);
        MPI_Put(&flag, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Win_fence(0, win);
        MPI_Win_fence(0, win);
        if (*got) {
            MPI_Barrier(sub);
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Barrier(sub);
        }
    }
    if (win != MPI_WIN_NULL)
        MPI_Win_free(&win);
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    if (pair != MPI_COMM_NULL)
        MPI_Comm_free(&pair);
    MPI_Finalize();
    return rank == 0 || x == 1 ? 0 : 1;
}
