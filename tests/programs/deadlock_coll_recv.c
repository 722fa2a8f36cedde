/* EXPECT: deadlock  NP: 2  TIMEOUT: 1 */
/*
 * Checks: MPI-CHECK's figure 23: rank 0 waits in MPI_Recv for rank 1
 * before an MPI_Bcast; rank 1 goes straight into the MPI_Bcast and sends
 * only after it.
 *
 * Why it is an error: the broadcast cannot complete at rank 1 before rank
 * 0 joins it (MPI-3.1 sec. 5.13: a correct program must not rely on a
 * collective returning before all members called it), and rank 0 joins
 * only after a message rank 1 sends after the broadcast.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0, b[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Bcast(b, 4, MPI_INT, 1, MPI_COMM_WORLD);
    if (rank == 1)
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
