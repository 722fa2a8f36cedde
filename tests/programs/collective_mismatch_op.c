/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: an MPI_Allreduce where rank 1 gives MPI_MAX and the others
 * MPI_SUM. Plain MPI finishes silently (with some result); the checker
 * reports, and since the sizes agree lets the program go on: it must still
 * reach MPI_Finalize (a later MPI_Barrier proves the ranks stay in step).
 *
 * Why it is an error: all members must give the same operation (MPI-3.1
 * sec. 5.9.1: "the same op", and sec. 5.9.6 for MPI_Allreduce).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 1, out = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&in, &out, 1, MPI_INT, rank == 1 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
