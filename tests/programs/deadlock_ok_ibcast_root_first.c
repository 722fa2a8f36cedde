/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: the root of an MPI_Ibcast waits for its request and then sends
 * rank 1 a message; rank 1 receives that message first and only then
 * joins the broadcast.
 *
 * Why it must finish silently: it does finish without the checker: with a
 * small message the root's MPI_Ibcast completes in MPI before rank 1 has
 * joined (both packaged MPIs send it eagerly). The program counts on
 * that, which MPI does not promise (a collective may synchronize, MPI-4.0
 * sec. 6.12), but nothing it does is an error MPI would report, and no
 * deadlock is proven: the checker, which holds a nonblocking collective
 * until its handshake ended (src/coll/held.c), must start the real
 * broadcast when the root's wait has lasted a moment, not keep the root
 * waiting for a member that waits for it.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v = 0, token = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        v = 42;
        MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return v != 42;
}
