/* EXPECT: potential-deadlock  NP: 2  MODE: strict  TIMEOUT: 600  ONLY: yes  RANKS: 0,1  SAYS: wait+for+each+other+forever */
/*
 * Checks: the model of synchronous sends through the data (docs/design.md,
 * "Sends let go without their acknowledgment"). Rank 0 MPI_Send's tag 10
 * and then tag 20 to rank 1; rank 1 computes for a second, then receives
 * tag 20 first and tag 10 after.
 *
 * Why a warning: with MPI_Ssend semantics rank 0 waits in its first send
 * for a receive rank 1 posts only after receiving rank 0's second
 * message, which rank 0 sends only after the first completed.
 *
 * How this fails without the model: rank 0's first send waits while rank
 * 1 computes; the early probe lets it go without a verdict, and the second
 * one too; rank 1 then receives both, and nothing was waiting any more.
 * With the model, rank 0's second send tells rank 1 that it was started
 * after the first was let go; rank 1's receive of tag 10, posted after it
 * received tag 20, closes the cycle. A 600 s timeout and a 120 s limit per
 * run: only the model's verdict passes.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, b = 2, x = -1, y = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 1, 20, MPI_COMM_WORLD);
    } else if (rank == 1) {
        sleep(1);
        MPI_Recv(&y, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return rank == 1 && (x != 1 || y != 2) ? 1 : 0;
}
