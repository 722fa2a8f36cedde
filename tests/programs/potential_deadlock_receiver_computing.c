/* EXPECT: potential-deadlock  NP: 2  MODE: strict  TIMEOUT: 600  ONLY: yes  RANKS: 0,1  SAYS: would+wait+for+each+other+forever */
/*
 * Checks: strict mode's model of synchronous sends (docs/design.md, "Sends
 * let go without their acknowledgment"). Ranks 0 and 1 MPI_Send one int to
 * each other, then MPI_Recv; rank 1 computes for a second first.
 *
 * Why a warning: with MPI_Ssend semantics both sends wait for receives
 * that are posted only after them: the unsafe exchange. MPI buffers the
 * small messages, so the program completes.
 *
 * How this fails without the model: rank 0's send waits for its receive
 * while rank 1 computes; the early probe finds rank 1 computing and lets
 * the send go without a verdict; when rank 1 sends, rank 0's receive is
 * posted, and the cycle completes unseen. The timeout is 600 s and every
 * run is killed after 120 s, so only a verdict the model makes passes.
 * Both ranks may see the cycle (each let a send go): the finding is
 * written alike on both and folds into one. On a machine so loaded that
 * rank 0's early probe runs only after rank 1 has woken, the two sends
 * wait for each other and the early probe reports the cycle itself (with
 * its own words): either finding passes.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    out = rank;
    if (rank == 1)
        sleep(1);           /* computing: rank 0's send is let go */
    if (rank < 2) {
        MPI_Send(&out, 1, MPI_INT, 1 - rank, 4, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 1 - rank, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return in == 1 - rank || rank >= 2 ? 0 : 1;
}
