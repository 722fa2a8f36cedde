/*
 * One finding made five times at one call site on each of two ranks (a
 * null communicator in a loop): each rank reports it once, and the four
 * repeats of each are counted, after the findings (tests/terminal.sh).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < 5; i++)
        MPI_Comm_size(MPI_COMM_NULL, &size);
    MPI_Finalize();
    return 0;
}
