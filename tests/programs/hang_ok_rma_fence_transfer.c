/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: rank 1 starts 600 MPI_Get of 1 MiB from rank 0's window, then
 * computes for 9 s inside the MPI_Win_fence that completes them, while
 * rank 0 waits in the same fence; --hang-timeout is 6 s (6 x --timeout).
 *
 * Why it is correct: the fence is where MPI may move an epoch's data
 * (MPICH defers MPI_Get to it: MPICH's rma/manyget, 100,000 of 128 KiB,
 * spends 48 s in one MPI_Win_fence here, and got a false `hang` at
 * --timeout=3 in MPI-CorrBench's copy of it). The hang watch counts the
 * processor time of a thread inside a synchronization call as progress
 * while its process has one-sided operations pending, for 1 s plus 1 s a
 * 64 MiB (10.4 s here). No finding expected.
 *
 * How: the program defines PMPI_Win_fence, which the checker's
 * MPI_Win_fence calls, so that rank 1's second fence computes for 9 s
 * before it calls MPI's own (dlsym RTLD_NEXT): a long transfer on any MPI,
 * at a known time.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MIB (1024 * 1024)
typedef int (*fence_fn)(int, MPI_Win);
static volatile int slow;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    volatile unsigned long spin = 0;
    for (double end = now() + (slow ? 9.0 : 0.0); now() < end;)
        for (int i = 0; i < 100000; i++)
            spin++;
    fence_fn real = (fence_fn)dlsym(RTLD_NEXT, "PMPI_Win_fence");
    return real ? real(assert, win) : MPI_ERR_INTERN;
}

int main(int argc, char **argv)
{
    int rank;
    char *base, *local = malloc(MIB);
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(rank == 0 ? MIB : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (rank == 0)
        for (int i = 0; i < MIB; i++)
            base[i] = (char)i;
    MPI_Win_fence(0, win);
    if (rank == 1) {
        for (int i = 0; i < 600; i++)
            MPI_Get(local, MIB, MPI_CHAR, 0, 0, MIB, MPI_CHAR, win);
        slow = 1;
    }
    MPI_Win_fence(0, win);
    slow = 0;
    if (rank == 1 && (local[1] != 1 || local[MIB - 1] != (char)(MIB - 1)))
        printf("TEST FAILED: rank 1 got %d ... %d\n", local[1], local[MIB - 1]);
    MPI_Win_free(&win);
    free(local);
    MPI_Finalize();
    return 0;
}
