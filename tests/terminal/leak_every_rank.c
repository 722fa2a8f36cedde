/*
 * Every rank leaks one datatype made at the same line: one finding, which
 * the launcher's terminal report prints once with the ranks that reported
 * it (tests/terminal.sh).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Finalize();
    return 0;
}
