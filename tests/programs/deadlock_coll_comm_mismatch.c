/* EXPECT: deadlock  NP: 2  TIMEOUT: 1  CAUSE: communicator */
/*
 * Checks: both ranks hold MPI_COMM_WORLD and a duplicate of it; rank 0
 * calls MPI_Barrier on MPI_COMM_WORLD first, rank 1 on the duplicate
 * first.
 *
 * Why it is an error: collectives on one communicator are matched in the
 * order its members call them (MPI-4.0 sec. 6.1): each barrier waits for
 * the other rank, which waits in a barrier on the other communicator. Run
 * plainly, the program hangs. The deadlock report names the likely cause:
 * the two ranks are in collectives on different communicators.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(dup);
    } else {
        MPI_Barrier(dup);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
