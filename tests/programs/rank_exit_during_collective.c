/* EXPECT: rank-exit  NP: 3  TIMEOUT: 1  RANKS: 0,1,2 */
/*
 * Checks: rank 1 aborts (abort(), SIGABRT) while ranks 0 and 2 wait for it
 * in an MPI_Allreduce it never joins.
 *
 * Why it is an error: a process must call MPI_Finalize before it ends
 * (MPI-3.1 sec. 8.7), and a collective completes only when every member
 * of the communicator has called it (sec. 5.1): ranks 0 and 2 would wait
 * forever. The report must name rank 1, the signal, its last MPI call,
 * and ranks 0 and 2 waiting for it in MPI_Allreduce with their file:line
 * (RANKS: the finding's ranks are exactly 0, 1 and 2).
 */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank, x = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        /* The others are in the MPI_Allreduce by now. */
        struct timespec t = {0, 200000000};
        nanosleep(&t, NULL);
        abort();
    }
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
