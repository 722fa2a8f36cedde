/* EXPECT: potential-deadlock  NP: 3  MODE: strict  TIMEOUT: 600  ONLY: yes  RANKS: 0,1,2  SAYS: wait+for+each+other+forever */
/*
 * Checks: the model of synchronous sends along the data through a third
 * rank (docs/design.md, "Sends let go without their acknowledgment").
 * Rank 0 sends to rank 1, then to rank 2; rank 2 receives from rank 0,
 * then sends to rank 1; rank 1 computes for a second, then receives from
 * rank 2 first and from rank 0 after.
 *
 * Why a warning: with MPI_Ssend semantics rank 0 waits in its first send
 * for rank 1's receive, which comes after rank 1 received rank 2's
 * message, which rank 2 sends after receiving rank 0's second message,
 * sent only after the first: a cycle of three.
 *
 * How this fails without the model: rank 0's send to the computing rank 1
 * is let go without a verdict, and everything else completes. With the
 * model, rank 0's second send tells rank 2 it depends on the first; rank
 * 2's send, started after receiving it, tells rank 1; rank 1's receive
 * from rank 0, posted after that, closes the cycle. 600 s timeout, 120 s
 * limit per run.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, v = 5, x = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        sleep(1);
        MPI_Recv(&x, 1, MPI_INT, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
