/* EXPECT: deadlock  NP: 2  TIMEOUT: 1 */
/*
 * Checks: two communicators (MPI_COMM_WORLD and a duplicate); rank 0 calls
 * MPI_Allreduce on the world first and then on the duplicate, rank 1 in the
 * other order.
 *
 * Why it is an error: collectives on different communicators may block
 * until all members arrive; calling them in different orders on different
 * ranks is erroneous (MPI-3.1 sec. 5.13, example 5.25): each rank waits in
 * a collective the other has not reached.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v = 1, o;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0) {
        MPI_Allreduce(&v, &o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&v, &o, 1, MPI_INT, MPI_SUM, dup);
    } else {
        MPI_Allreduce(&v, &o, 1, MPI_INT, MPI_SUM, dup);
        MPI_Allreduce(&v, &o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
