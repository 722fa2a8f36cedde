/*
 * verdict.c - how long after a hang the checker's deadlock report comes.
 *
 *   verdict ring     every rank receives from its left neighbour before
 *                    sending to its right one: all ranks deadlock at once
 *   verdict coll     rank 1 skips an MPI_Barrier the others wait in and
 *                    waits in MPI_Recv from rank 0 (a cycle through a
 *                    collective); at 2 ranks the same as ring's shape
 *   verdict ok       the ring done right (MPI_Sendrecv): the job's start-up
 *                    and shut-down time, to subtract
 * Rank 0 prints "verdict: hang starts" after a barrier, just before the
 * hang; scripts/bench verdict times from that line to the checker's
 * "mpicheck: ERROR deadlock" line under --timeout=1 (and the job's end).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "ok";
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        /* When the hang starts, for whoever times the report. */
        printf("verdict: hang starts\n");
        fflush(stdout);
    }
    if (strcmp(what, "ring") == 0) {
        MPI_Recv(&x, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&y, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
    } else if (strcmp(what, "coll") == 0) {
        if (rank == 1)
            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            MPI_Send(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Sendrecv(&y, 1, MPI_INT, right, 0, &x, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
