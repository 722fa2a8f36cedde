/* EXPECT: potential-deadlock  NP: 2  MODE: strict */
/*
 * Checks: a notice of a posted receive acknowledges the send that receive
 * will take, and no other (docs/design.md, "Notices of posted receives":
 * counted per communicator, peer and tag).
 *
 * Rank 1 posts a receive for tag 9 and one for tag 5, then waits in
 * MPI_Recv for tag 7, and only then posts its second receive for tag 5.
 * Rank 0 sends tag 5 twice, then tag 9, then tag 7.
 *
 * Why a warning: with synchronous sends rank 0's second tag-5 send waits
 * for rank 1's second tag-5 receive, which rank 1 posts after receiving
 * tag 7, which rank 0 sends after that send: a cycle. Every MPI buffers
 * the small messages, so the program completes plainly.
 *
 * How this fails when notices are counted wrongly: two notices came from
 * rank 1 before rank 0's second tag-5 send; counted per peer instead of
 * per tag, the second would acknowledge it, and the cycle would be missed.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a = 0, b = 0, c = 0, d = 0, v = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Request r[2];
        MPI_Irecv(&a, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&b, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[1]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&c, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&d, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
