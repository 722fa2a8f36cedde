/*
 * Two different findings on different ranks: rank 0 leaks a datatype, rank
 * 1 a communicator. The terminal report prints two blocks
 * (tests/terminal.sh).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Datatype t;
    MPI_Comm c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (rank != 1)
        MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}
