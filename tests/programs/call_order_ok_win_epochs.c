/* EXPECT: OK  NP: 2  TIMEOUT: 2 */
/*
 * Checks: windows freed after every epoch of the process on them ended,
 * with each way of synchronizing:
 *   1. fences around puts, then MPI_Win_free (the last fence asserts
 *      MPI_MODE_NOSUCCEED);
 *   2. MPI_Win_lock / MPI_Win_unlock around puts and gets, then a lock
 *      epoch after a fence epoch on the same window with no fence after it
 *      (MPICH's rma/mixedsync does the same);
 *   3. MPI_Win_lock_all / MPI_Win_unlock_all with MPI_Win_flush inside;
 *   4. MPI_Win_post / MPI_Win_start / MPI_Win_complete / MPI_Win_wait
 *      (generalized active target), rank 1 exposing, rank 0 accessing;
 *   5. a put to MPI_PROC_NULL after the last fence (no data moves).
 *
 * Why it is correct: each process completed its involvement in one-sided
 * communication on each window before freeing it (MPI-4.0 sec. 12.2.5).
 * No finding expected. (MPI_Win_allocate: with the test harness's
 * OMPI_MCA_btl_vader_single_copy_mechanism=none, Open MPI 4.1.4 refuses
 * MPI_Win_create on memory of the program's own with MPI_ERR_WIN.)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, *mem, v[4] = {1, 2, 3, 4}, got[4];
    MPI_Win w;
    MPI_Group world, peer;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int other = 1 - rank;

    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w);
    MPI_Put(v, 4, MPI_INT, other, 0, 4, MPI_INT, w);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
    MPI_Win_free(&w);

    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    MPI_Win_fence(0, w);
    MPI_Put(v, 4, MPI_INT, other, 4, 4, MPI_INT, w);
    MPI_Win_fence(0, w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, other, 0, w);
    MPI_Put(v, 4, MPI_INT, other, 0, 4, MPI_INT, w);
    MPI_Get(got, 4, MPI_INT, other, 0, 4, MPI_INT, w);
    MPI_Win_unlock(other, w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&w);

    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    MPI_Win_lock_all(0, w);
    MPI_Put(v, 4, MPI_INT, other, 0, 4, MPI_INT, w);
    MPI_Win_flush(other, w);
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&w);

    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &w);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &other, &peer);
    if (rank == 1) {
        MPI_Win_post(peer, 0, w);
        MPI_Win_wait(w);
    } else {
        MPI_Win_start(peer, 0, w);
        MPI_Put(v, 4, MPI_INT, 1, 0, 4, MPI_INT, w);
        MPI_Win_complete(w);
    }
    MPI_Win_fence(0, w);
    if (rank == 1 && (mem[0] != 1 || mem[3] != 4))
        printf("TEST FAILED: rank 1's window holds %d..%d\n", mem[0], mem[3]);
    MPI_Put(v, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w);
    MPI_Win_free(&w);
    MPI_Group_free(&peer);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
