/* EXPECT: deadlock  NP: 2 */
/*
 * Checks: a program that asks for MPI_THREAD_MULTIPLE but runs one thread
 * (what every mpi4py program does by default) still gets its deadlocks
 * reported: both ranks receive first. The checker counts the program's
 * threads (pthread_create outside MPI calls; the MPI library's own threads
 * do not count, core/threads.c); with none besides the main one the rank
 * is as single-threaded as under MPI_THREAD_SINGLE.
 *
 * Why it is an error: each rank waits for a message the other sends only
 * after its own receive (MPI-4.0 sec. 3.4); neither can go on.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int provided, rank, v = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < 2) {
        MPI_Recv(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
