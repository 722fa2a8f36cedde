/* A rank crashes while the others wait for it in MPI_Recv, on both nodes:
 * the rank-exit finding must name every waiter, those on the other node
 * (their waits relayed to the launcher) included. argv[1]: the rank that
 * crashes (default 1). */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, in = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dying = argc > 1 ? atoi(argv[1]) : 1;
    if (rank == dying) {
        sleep(2);   /* the others are waiting by now, and their waits have been relayed */
        volatile int *p = NULL;
        *p = 1;
    } else {
        MPI_Recv(&in, 1, MPI_INT, dying, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
