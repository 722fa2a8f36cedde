/* EXPECT: OK  NP: 2 */
/*
 * Checks: every rank calls MPI_Finalize, then rank 1 ends with exit(0) from
 * a helper function and rank 0 returns from main.
 *
 * Why it is correct: a process may end any way it likes after MPI_Finalize
 * (MPI-3.1 sec. 8.7); only ending before it is reported.
 */
#include <mpi.h>
#include <stdlib.h>

static void leave(void) { exit(0); }

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 1)
        leave();
    return 0;
}
