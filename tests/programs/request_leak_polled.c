/* EXPECT: request-leak  NP: 2  SAYS: tested+3+times+without+completing */
/*
 * Checks: a request the program tested but never completed is a leak, and
 * the report counts its tests. Rank 1 posts an MPI_Irecv for tag 99, which
 * nobody sends, tests it three times (each MPI_Test answers "not
 * complete") and reaches MPI_Finalize with it still pending.
 *
 * Why it matters here: a poll of a request the checker holds and that is
 * not complete takes a short path (runtime/complete.c,
 * mc_eng_test_pending) that skips the argument checks and the tracking;
 * the count of tests must still come out right.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 0, flag = 0;
    MPI_Request pending;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Irecv(&value, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &pending);
        for (int i = 0; i < 3; i++) {
            MPI_Test(&pending, &flag, MPI_STATUS_IGNORE);
            if (flag)
                printf("TEST FAILED: a receive nobody sends to completed\n");
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
