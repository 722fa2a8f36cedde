/* EXPECT: call-order  NP: 2  TIMEOUT: 2  RANKS: 0  SAYS: passive-target+epoch|MPI_Win_lock+without+its+MPI_Win_unlock|one-sided+operation+(the+first+shown)+issued+after+the+last+MPI_Win_fence */
/*
 * Checks: rank 0 frees two windows while its part in one-sided
 * communication on them is not over:
 *   1. it locks rank 1's part of window A, puts into it and frees A
 *      without MPI_Win_unlock;
 *   2. after an MPI_Win_fence on window B it puts into rank 1's part and
 *      frees B with no fence after the put.
 *
 * Why it is an error: a process may call MPI_Win_free only after it has
 * completed its involvement in one-sided communication on the window: a
 * fence after its operations, MPI_Win_unlock after MPI_Win_lock,
 * MPI_Win_complete after MPI_Win_start, MPI_Win_wait after MPI_Win_post
 * (MPI-4.0 sec. 12.2.5). Plainly both MPIs end the program without a word
 * (the MPI Bugs Initiative's EpochLifecycle_RMA_MissingClose_* codes).
 * Rank 1 does nothing wrong: it never opened an epoch of its own.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, *a = calloc(4, sizeof(int)), *b = calloc(4, sizeof(int)), v[4] = {1, 2, 3, 4};
    MPI_Win wa, wb;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(a, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wa);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, wa);
        MPI_Put(v, 4, MPI_INT, 1, 0, 4, MPI_INT, wa);
    }
    MPI_Win_free(&wa);

    MPI_Win_create(b, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wb);
    MPI_Win_fence(0, wb);
    if (rank == 0)
        MPI_Put(v, 4, MPI_INT, 1, 0, 4, MPI_INT, wb);
    MPI_Win_free(&wb);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
