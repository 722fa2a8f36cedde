/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: the model of synchronous sends does not judge a rank whose
 * wildcard receives may match otherwise with synchronous sends (docs/
 * design.md, "Sends let go without their acknowledgment"). Rank 0 sends
 * to rank 1, then to rank 2; rank 2 receives from rank 0 and sends to
 * rank 1; rank 1 computes, then receives twice with MPI_ANY_SOURCE.
 *
 * Why no finding: with MPI_Ssend semantics rank 1's first receive can take
 * only rank 0's message (rank 2 sends only after rank 0's first send
 * completed), and the program completes. In this run the first receive
 * may take rank 2's message (rank 0's first send was let go), and a model
 * that judged by this run's matches would see rank 1 receive rank 0's
 * message only after a message that depends on it: a false cycle.
 *
 * How this fails when the model follows a rank past a wildcard receive:
 * a potential-deadlock warning whenever rank 2's message is taken first.
 * On one node that is rare (rank 0's envelope is there first, and the
 * wildcard's mirror takes the first to arrive); across nodes, where
 * messages from two ranks can arrive in either order, it is not. The
 * program also fails on any other finding of the model here.
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
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
