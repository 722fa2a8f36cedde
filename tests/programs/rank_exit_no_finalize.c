/* EXPECT: rank-exit  NP: 2  TIMEOUT: 1  RANKS: 0,1 */
/*
 * Checks: rank 1 calls exit(0) without MPI_Finalize while rank 0 waits in
 * MPI_Recv for a message from it.
 *
 * Why it is an error: "all processes must call MPI_Finalize before exiting"
 * (MPI-3.1 sec. 8.7); rank 0 would wait forever if the launcher did not end
 * the job.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        exit(0);
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
