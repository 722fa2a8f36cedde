/* EXPECT: potential-deadlock  NP: 2  RANKS: 0,1 */
/*
 * Checks: the unsafe exchange (both ranks MPI_Send to each other before
 * either receives) is found in a program that asked for
 * MPI_THREAD_MULTIPLE but runs no thread besides the main one, as mpi4py
 * scripts do (mpi4py asks for MPI_THREAD_MULTIPLE by default).
 *
 * Why a warning: the exchange completes only because MPI buffers the small
 * messages; with synchronous sends (or messages past the eager limit) both
 * ranks wait forever (MPI-4.0 sec. 3.5, "unsafe" programs). With only the
 * main thread, every wait of the rank is the whole rank's, so the
 * detector's proof is the single-threaded one (runtime/deadlock_answer.c,
 * mc_eng_strict_now).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int provided, rank, out, in = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    out = rank;
    if (rank < 2) {
        MPI_Send(&out, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (in != 1 - rank)
            printf("TEST FAILED: rank %d received %d\n", rank, in);
    }
    MPI_Finalize();
    return 0;
}
