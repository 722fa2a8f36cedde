/* EXPECT: OK  NP: 3  TIMEOUT: 1 */
/*
 * Checks: rank 2 computes for 2.5 s (more than twice the checker's timeout)
 * before joining an MPI_Barrier and an MPI_Allreduce the others wait in.
 *
 * Why it is correct: a member that is late is not a deadlock: the barrier
 * completes once it arrives (MPI-3.1 sec. 5.3). The detector runs after the
 * timeout, finds rank 2 busy outside MPI, and must blame nobody.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank, v = 1, o = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        struct timespec ts = {2, 500000000};
        nanosleep(&ts, NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&v, &o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (o != 3) {
        fprintf(stderr, "TEST FAILED: rank %d: sum %d\n", rank, o);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return 0;
}
