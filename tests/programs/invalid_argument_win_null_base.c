/* EXPECT: invalid-argument  NP: 2  TIMEOUT: 2  RANKS: 1  SAYS: is+NULL+but+size+is+40+bytes */
/*
 * Checks: rank 1 creates its part of a window with base NULL and a size of
 * 40 bytes (an array it never allocated); rank 0 gives real memory. Both
 * open and close a fence epoch without one-sided operations, then free the
 * window.
 *
 * Why it is an error: a window's memory is the size bytes at base, which
 * other processes' MPI_Put and MPI_Get reach (MPI-4.0 sec. 12.2.1); with
 * NULL there is no such memory. Plainly, a put into it makes Open MPI's
 * one-sided copy fail with EFAULT and retry for ever ("Wrote -1, expected
 * 40, errno = 14": the MPI Bugs Initiative's InvalidParam_WinBuffer_null
 * ran until killed). This program makes no put. With the test harness's
 * OMPI_MCA_btl_vader_single_copy_mechanism=none, Open MPI 4.1.4 refuses
 * every MPI_Win_create on the program's own memory (MPI_ERR_WIN): that
 * error then follows the checker's report.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, *mem = NULL;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        mem = calloc(10, sizeof(int));
    MPI_Win_create(mem, 10 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    free(mem);
    MPI_Finalize();
    return 0;
}
