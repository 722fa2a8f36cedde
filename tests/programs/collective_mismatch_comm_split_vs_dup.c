/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: rank 2 calls MPI_Comm_dup(MPI_COMM_WORLD) while ranks 0 and 1
 * call MPI_Comm_split on it.
 *
 * Why it is an error: both are collective over the communicator (MPI-3.1
 * sec. 6.4.2), and members must call the same collective operation in the
 * same order (sec. 5.13). MPI may hang or build wrong communicators.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Comm c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    else
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c);
    MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}
