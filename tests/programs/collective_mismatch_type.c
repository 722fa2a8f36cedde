/* EXPECT: collective-mismatch  NP: 2 */
/*
 * Checks: an MPI_Allreduce of one MPI_INT on rank 0 and one MPI_FLOAT on
 * rank 1: the same 4 bytes, different types.
 *
 * Why it is an error: the type signatures of all members must match
 * (MPI-3.1 sec. 5.1; sec. 5.9.1: count and datatype the same everywhere).
 * MPI adds an int to a float's bits without a word. Same sizes: the checker
 * reports and the program goes on.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, i = 1, io;
    float f = 1.0f, fo;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Allreduce(&f, &fo, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Allreduce(&i, &io, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
