/* EXPECT: rank-exit  NP: 2  TIMEOUT: 1  RANKS: 0,1  SAYS: no+word+of+their+own|rank+0+in+MPI_Recv|rank+1+outside+MPI */
/*
 * Checks: rank 1 is killed with SIGKILL after an MPI_Barrier (as the
 * kernel's out-of-memory killer or a batch system's limit would kill it),
 * while rank 0 waits in MPI_Recv for a message from it; MPI's launcher
 * then ends rank 0.
 *
 * Why it is an error: the rank ends without MPI_Finalize (MPI-4.0 sec.
 * 11.2.2: each process must call it before it exits) and the job fails.
 * No handler can catch SIGKILL, so the rank cannot say so itself: the
 * launcher finds its board still running and its process gone, with no
 * exit status written (launcher/vanished.c). Which of the two ended first
 * it cannot tell, so both are named. Before, the report said "no errors
 * found" while the job had failed.
 */
#include <mpi.h>
#include <signal.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        raise(SIGKILL);
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
