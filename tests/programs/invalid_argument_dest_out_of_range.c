/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_Send to dest == size of the communicator.
 *
 * Why it is an error: dest must be a rank of the communicator (0..size-1) or
 * MPI_PROC_NULL (MPI-4.0 sec. 3.2.3); size itself is one past the last rank
 * (MPI_ERR_RANK). This is the classic off-by-one of a ring or halo code that
 * forgets the wrap-around.
 *
 * Rank 0 sends to rank `size`. The library rejects the call (errors are
 * returned), nothing is sent, no receive is posted.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, rc, value = 42;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    if (rank == 0) {
        rc = MPI_Send(&value, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* BUG: dest == size */
        printf("rank 0: MPI_Send to dest %d returned %d\n", size, rc);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
