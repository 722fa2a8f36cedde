/* EXPECT: hang  NP: 2  TIMEOUT: 1  RANKS: 0,1 */
/*
 * Checks: rank 0 calls MPI_Win_fence on a window of both ranks, then
 * sends rank 1 a message; rank 1 never calls the fence and waits for the
 * message.
 *
 * Why it is an error: MPI_Win_fence is collective over the window's group
 * (MPI-4.0 sec. 12.5.1); a fence that one member never calls never
 * completes. One-sided synchronization is not a message the checker's
 * handshakes model, so no deadlock can be proven: rank 0 is inside
 * PMPI_Win_fence, where it answers nobody, and rank 1 in MPI_Recv; neither
 * moves, and the launcher's hang watch reports both calls after
 * --hang-timeout (6 x --timeout) and ends the job. Run plainly, the
 * program hangs.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, *buf;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* MPI_Win_allocate: Open MPI's shared-memory one-sided component
     * takes it on one node, where MPI_Win_create finds none. */
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    if (rank == 0) {
        MPI_Win_fence(0, win);
        MPI_Send(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
