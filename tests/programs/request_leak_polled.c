/* EXPECT: request-leak  NP: 2  SAYS: tested+13+times+without+completing+in+all */
/*
 * Checks: requests the program tested but never completed are a leak, and
 * the report counts their tests. Rank 1 posts two MPI_Irecv (tags 98 and
 * 99, made at one line), which nobody sends, and polls them: MPI_Test on
 * the first once, then MPI_Testany, MPI_Testall and MPI_Testsome on both,
 * twice each. Every call answers "nothing completed"; the first request
 * was tested 7 times, the second 6, 13 in all, and both are still pending
 * at MPI_Finalize.
 *
 * Why it matters here: a poll of requests the checker holds, none of them
 * complete, takes a short path (runtime/poll.c, mc_eng_test_pending)
 * that skips the argument checks and the tracking; the count of tests and
 * the answers must still come out right.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value[2] = {0, 0}, flag = 1, index = 0, outcount = 1, indices[2], bad = 0;
    MPI_Request pending[2];
    MPI_Status sts[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        for (int k = 0; k < 2; k++)
            MPI_Irecv(&value[k], 1, MPI_INT, 0, 98 + k, MPI_COMM_WORLD, &pending[k]);
        MPI_Test(&pending[0], &flag, MPI_STATUS_IGNORE);
        bad |= flag != 0;
        for (int i = 0; i < 2; i++) {
            flag = 1, index = 0, outcount = 1;
            MPI_Testany(2, pending, &index, &flag, MPI_STATUS_IGNORE);
            bad |= flag != 0 || index != MPI_UNDEFINED;
            flag = 1;
            MPI_Testall(2, pending, &flag, sts);
            bad |= flag != 0;
            MPI_Testsome(2, pending, &outcount, indices, sts);
            bad |= outcount != 0;
        }
        bad |= pending[0] == MPI_REQUEST_NULL || pending[1] == MPI_REQUEST_NULL;
        if (bad)
            printf("TEST FAILED: a poll of receives nobody sends to answered that one completed\n");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
