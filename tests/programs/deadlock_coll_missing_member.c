/* EXPECT: deadlock  NP: 3  TIMEOUT: 1 */
/*
 * Checks: MPI-CHECK's figure 19: ranks 0 and 1 call MPI_Barrier; rank 2
 * skips it and waits in MPI_Recv for a message rank 0 sends only after the
 * barrier.
 *
 * Why it is an error: the barrier completes only when every member has
 * called it (MPI-3.1 sec. 5.3); rank 2 calls it only after its receive,
 * which needs rank 0 past the barrier. The report must say that ranks 0
 * and 1 wait for rank 2 to join the collective and rank 2 waits for rank 0.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
