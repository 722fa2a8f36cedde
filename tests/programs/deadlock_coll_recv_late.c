/* EXPECT: deadlock  NP: 2  TIMEOUT: 1 */
/*
 * Checks: deadlock_coll_recv.c in the 65th collective of MPI_COMM_WORLD,
 * when the checker runs its handshakes by point-to-point (src/coll/hs_p2p.c):
 * rank 0 waits in MPI_Recv for rank 1, which waits in an MPI_Barrier rank
 * 0 joins only after the receive.
 *
 * Why it is an error: the barrier cannot complete before rank 0 joins it
 * (MPI-3.1 sec. 5.3), and rank 0 joins only after a message rank 1 sends
 * after the barrier.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 64; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
