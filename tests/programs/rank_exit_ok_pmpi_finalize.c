/* EXPECT: OK  NP: 2 */
/*
 * MPI_Init goes through the checker, MPI_Finalize past it (PMPI_Finalize
 * directly, as a binding that calls MPI's PMPI entry points does): the
 * process then exits normally, which is no early end (rank-exit).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    PMPI_Finalize();
    return 0;
}
