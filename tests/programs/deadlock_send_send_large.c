/* EXPECT: deadlock  NP: 2  MODE: strict */
/*
 * Checks: the unsafe exchange with a message too large to buffer. Ranks 0
 * and 1 both MPI_Send 16 MiB (heap buffers) to each other, then MPI_Recv.
 *
 * Why it is an error: a standard send may wait until the matching receive is
 * posted (MPI-3.1 sec. 3.4, 3.5). No MPI library buffers 16 MiB eagerly; both
 * use a rendezvous protocol for it, so each MPI_Send waits for a receive that
 * the peer posts only after its own MPI_Send returns: an actual deadlock,
 * reported in strict and in fast mode (deadlock_send_send_large_fast.c
 * includes this file). Run plainly, the program hangs.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NINTS (4 * 1024 * 1024)     /* 16 MiB of int */

int main(int argc, char **argv)
{
    int rank, peer, i;
    int *out, *in;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    out = malloc(NINTS * sizeof(int));
    in = malloc(NINTS * sizeof(int));
    if (!out || !in)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (i = 0; i < NINTS; i++)
        out[i] = rank + i;

    if (rank < 2) {
        /* BUG: both ranks send a rendezvous-sized message first */
        MPI_Send(out, NINTS, MPI_INT, peer, 2, MPI_COMM_WORLD);
        MPI_Recv(in, NINTS, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
