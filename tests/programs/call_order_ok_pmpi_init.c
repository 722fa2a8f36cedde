/* EXPECT: OK  NP: 2  SKIPPED: unseen-mpi-init */
/*
 * MPI is started and ended past the checker, as a binding that calls
 * PMPI_Init and PMPI_Finalize directly does (MPICH's mpi_f08 module): the
 * calls in between reach the checker's wrappers. Not a call-order error
 * ("MPI_Send was called before MPI_Init"), not a rank-exit; the checker
 * says it stayed off, and the report counts the processes as unchecked.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    PMPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        MPI_Send(&rank, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    PMPI_Finalize();
    return 0;
}
