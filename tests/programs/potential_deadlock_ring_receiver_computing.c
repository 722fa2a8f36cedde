/* EXPECT: potential-deadlock  NP: 3  MODE: strict  TIMEOUT: 600  ONLY: yes  RANKS: 0,1,2  SAYS: wait+for+each+other+forever */
/*
 * Checks: the model of synchronous sends through a third rank (docs/
 * design.md, "Sends let go without their acknowledgment"). A ring: each
 * rank MPI_Send's to the next and then receives from the previous one;
 * rank 2 computes for a second first.
 *
 * Why a warning: with MPI_Ssend semantics every send waits for a receive
 * posted only after the next rank's send completes: a cycle of three.
 *
 * How this fails without the model: rank 1's send to the computing rank 2
 * is let go by the early probe; rank 1 then receives rank 0's message,
 * and tells rank 0 (a notice) that its receive was posted while it
 * depended on that send. Rank 0, once rank 2's message comes, tells rank 2
 * the same; rank 2's receive then takes rank 1's message: the cycle. With
 * a 600 s timeout and a 120 s limit per run, only the model's verdict
 * passes.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    out = rank;
    if (rank == 2)
        sleep(1);
    if (rank < 3) {
        MPI_Send(&out, 1, MPI_INT, (rank + 1) % 3, 4, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, (rank + 2) % 3, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
