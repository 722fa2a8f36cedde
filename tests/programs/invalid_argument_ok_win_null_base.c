/* EXPECT: OK  NP: 2  TIMEOUT: 2  FLAVOR: mpich */
/*
 * Checks: MPI_Win_create with base NULL and size 0 at rank 1 (it exposes
 * nothing), real memory at rank 0, which rank 1 puts into between two
 * fences.
 *
 * Why it is correct: a window part of size 0 has no memory to point to,
 * and NULL is as good a base as any (MPI-4.0 sec. 12.2.1); the check that
 * a window's base is not NULL applies only when the size is not 0.
 * No finding expected.
 *
 * MPICH only: Open MPI 4.1.4 now and then refuses a window one of whose
 * parts has size 0 (MPI_ERR_WIN in MPI_Win_create, 1 run in about 40
 * here, plainly as well: MPI-CorrBench's rma/rmazero, docs/corrbench.md).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, *mem = NULL, one = 1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        mem = calloc(4, sizeof(int));
    MPI_Win_create(mem, rank == 0 ? 4 * sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&one, 1, MPI_INT, 0, 2, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 0 && mem[2] != 1)
        printf("TEST FAILED: rank 0's window holds %d, not 1\n", mem[2]);
    MPI_Win_free(&win);
    free(mem);
    MPI_Finalize();
    return 0;
}
