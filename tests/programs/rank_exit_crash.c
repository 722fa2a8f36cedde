/* EXPECT: rank-exit  NP: 2  TIMEOUT: 1  RANKS: 0,1 */
/*
 * Checks: rank 1 crashes (a write through a null pointer) after an
 * MPI_Barrier, while rank 0 waits in MPI_Recv for a message from it.
 *
 * Why it is an error: the rank dies without MPI_Finalize (MPI-3.1 sec. 8.7:
 * every process must call MPI_Finalize before it exits), and rank 0 would
 * wait for it forever if the launcher did not end the job. The report must
 * name rank 1, the signal, and its last MPI call (the barrier).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        volatile int *p = (volatile int *)0;
        *p = 1;
    }
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
