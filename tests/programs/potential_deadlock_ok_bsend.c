/* EXPECT: OK  NP: 2 */
/*
 * Checks: the send-send exchange done safely with buffered sends. After
 * MPI_Buffer_attach of enough space (MPI_Pack_size + MPI_BSEND_OVERHEAD per
 * message), ranks 0 and 1 both MPI_Bsend 4 ints to each other, then MPI_Recv,
 * then detach the buffer.
 *
 * Why it is correct, strict mode included: a buffered-mode send completes
 * locally, whether or not a matching receive has been posted, copying the
 * message to the attached buffer (MPI-3.1 sec. 3.4, 3.6). With enough buffer
 * space it never waits, so no potential deadlock exists.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, peer, size, bufsize, k, bad = 0, out[4], in[4];
    void *buf, *detached;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    MPI_Pack_size(4, MPI_INT, MPI_COMM_WORLD, &size);
    bufsize = size + MPI_BSEND_OVERHEAD;
    buf = malloc(bufsize);
    MPI_Buffer_attach(buf, bufsize);
    for (k = 0; k < 4; k++)
        out[k] = 10 * rank + k;

    if (rank < 2) {
        MPI_Bsend(out, 4, MPI_INT, peer, 16, MPI_COMM_WORLD);
        MPI_Recv(in, 4, MPI_INT, peer, 16, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (k = 0; k < 4; k++)
            bad += in[k] != 10 * peer + k;
        if (bad)
            printf("rank %d: %d wrong values\n", rank, bad);
    }

    MPI_Buffer_detach(&detached, &bufsize);
    free(detached);
    MPI_Finalize();
    return 0;
}
