/* EXPECT: call-order  NP: 2  TIMEOUT: 2  RANKS: 0  SAYS: passive-target+epoch|MPI_Win_lock+without+its+MPI_Win_unlock|MPI_Win_lock(lock_type= */
/*
 * Checks: rank 0 locks rank 1's part of a window, puts into it, and both
 * free the window without MPI_Win_unlock.
 *
 * Why it is an error: a process may call MPI_Win_free only after it has
 * completed its involvement in one-sided communication on the window,
 * MPI_Win_unlock after MPI_Win_lock among others (MPI-4.0 sec. 12.2.5).
 * Plainly Open MPI ends the program without a word (the MPI Bugs
 * Initiative's EpochLifecycle_RMA_MissingClose_Win_lock_*); MPICH raises
 * "Wrong synchronization of RMA calls" in the free, after the checker's
 * report, which names the free and the MPI_Win_lock. (MPI_Win_allocate:
 * see call_order_win_free_open_epoch.c.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *a, v[4] = {1, 2, 3, 4};
    MPI_Win wa;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &a, &wa);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, wa);
        MPI_Put(v, 4, MPI_INT, 1, 0, 4, MPI_INT, wa);
    }
    MPI_Win_free(&wa);
    MPI_Finalize();
    return 0;
}
