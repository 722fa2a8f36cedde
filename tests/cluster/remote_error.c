/* Only the last rank (on the second node) makes an error: its finding
 * must reach the launcher's report over the relay. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, v = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1)
        MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);   /* a negative count */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
