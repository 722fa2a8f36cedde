/* EXPECT: call-order  NP: 2  TIMEOUT: 2  RANKS: 0  SAYS: one-sided+operation+(the+first+shown)+issued+after+the+last+MPI_Win_fence|MPI_Put( */
/*
 * Checks: after an MPI_Win_fence rank 0 puts into rank 1's part of a
 * window, and both free the window with no fence after the put.
 *
 * Why it is an error: a process may call MPI_Win_free only after it has
 * completed its involvement in one-sided communication on the window: a
 * fence after its operations, MPI_Win_unlock after MPI_Win_lock,
 * MPI_Win_complete after MPI_Win_start, MPI_Win_wait after MPI_Win_post
 * (MPI-4.0 sec. 12.2.5). Plainly Open MPI ends the program without a word
 * (the MPI Bugs Initiative's EpochLifecycle_RMA_MissingClose_Win_fence_*);
 * MPICH raises "Wrong synchronization of RMA calls" in the free, after the
 * checker's report. Rank 1 does nothing wrong: it made no operation of its
 * own. (MPI_Win_allocate, not MPI_Win_create: with the test harness's
 * OMPI_MCA_btl_vader_single_copy_mechanism=none, Open MPI 4.1.4 refuses
 * MPI_Win_create on memory of the program's own with MPI_ERR_WIN.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *b, v[4] = {1, 2, 3, 4};
    MPI_Win wb;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &b, &wb);
    MPI_Win_fence(0, wb);
    if (rank == 0)
        MPI_Put(v, 4, MPI_INT, 1, 0, 4, MPI_INT, wb);
    MPI_Win_free(&wb);
    MPI_Finalize();
    return 0;
}
