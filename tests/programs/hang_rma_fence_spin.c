/* EXPECT: hang  NP: 2  TIMEOUT: 1  RANKS: 0,1  SAYS: MPI_Win_fence */
/*
 * Checks: rank 1 starts one MPI_Get of 4 bytes, then spins forever inside
 * the MPI_Win_fence that completes it, using the processor, while rank 0
 * waits in the same fence.
 *
 * Why it is an error: the job never ends. A thread inside an RMA
 * synchronization call with one-sided operations pending counts as
 * progress only for a bounded processor time (1 s plus 1 s a 64 MiB
 * pending; hang_ok_rma_fence_transfer.c is the correct twin), since MPI
 * spins in a fence that can never complete as it does in one that moves
 * data. After that the hang watch reports both ranks' calls.
 *
 * How: the program defines PMPI_Win_fence, which the checker's
 * MPI_Win_fence calls; rank 1's second fence spins in it forever.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>

typedef int (*fence_fn)(int, MPI_Win);
static volatile int forever;

int PMPI_Win_fence(int assert, MPI_Win win)
{
    volatile unsigned long spin = 0;
    while (forever)
        spin++;
    fence_fn real = (fence_fn)dlsym(RTLD_NEXT, "PMPI_Win_fence");
    return real ? real(assert, win) : MPI_ERR_INTERN;
}

int main(int argc, char **argv)
{
    int rank, x = 0, *base;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        MPI_Get(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        forever = 1;
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
