/* EXPECT: potential-deadlock  NP: 3  MODE: strict  TIMEOUT: 600  ONLY: yes  SAYS: would+wait+for+each+other+forever */
/*
 * Checks: strict mode's model of synchronous sends carries a dependency
 * through a collective on a communicator the send's receiver is not in,
 * and then on through a message (src/p2p/synccoll.c, syncmodel.c). Rank 0
 * sends one int to rank 2 and calls MPI_Allreduce on a communicator of
 * ranks 0 and 1; rank 1 calls that MPI_Allreduce and then sends to rank 2;
 * rank 2 computes for a second, receives rank 1's message, then rank 0's.
 *
 * Why a warning: with MPI_Ssend semantics rank 0's send completes only
 * once rank 2 posts the receive of it, which rank 2 does only after it
 * received rank 1's message, which rank 1 sends only after the
 * MPI_Allreduce, which may complete only once rank 0 has entered it, after
 * its send (MPI-4.0 sec. 6.14). MPI buffers the small messages.
 *
 * How this fails without the collective in the model: rank 0's send is let
 * go while rank 2 computes, and nothing tells rank 1 or rank 2 that rank 0
 * reached the MPI_Allreduce only past it. The timeout is 600 s and every
 * run is killed after 120 s, so only the model's verdict passes. Two
 * reductions first: under tests/hs_p2p.sh the one that matters then runs
 * by point-to-point, its data carried in the handshake.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, out = 5, in0 = -1, in1 = -1, one = 1, sum = 0;
    MPI_Comm pair;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    for (int i = 0; rank < 2 && i < 2; i++)
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, pair);
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, pair);
    } else if (rank == 1) {
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, pair);
        MPI_Send(&out, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
    } else {
        sleep(1);           /* computing: rank 0's send is let go */
        MPI_Recv(&in1, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&in0, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (pair != MPI_COMM_NULL)
        MPI_Comm_free(&pair);
    MPI_Finalize();
    return rank < 2 ? (sum == 2 ? 0 : 1) : (in0 == 5 && in1 == 5 ? 0 : 1);
}
