/* EXPECT: buffer-overlap  NP: 3  RANKS: 0,1,2 */
/*
 * Checks: every rank calls MPI_Ialltoallv with sendbuf and recvbuf at the
 * same address, send blocks at the even ints and receive blocks at the odd
 * ints, so that no byte is both sent and received.
 *
 * Why it is an error: the two buffer arguments are one address without
 * MPI_IN_PLACE, and MPI libraries read that as aliasing (MPI-4.0 sec. 2.3)
 * whatever the datatypes select: Open MPI 4.1's MPI_Ialltoallv runs it as
 * MPI_IN_PLACE and delivers wrong data, MPICH refuses equal pointers in
 * some collectives. (buffer_overlap_ok_collective.c passes a + 1 instead
 * and is correct.)
 */
#include <mpi.h>

#define NP 3

int main(int argc, char **argv)
{
    int size, a[2 * NP], sc[NP], sd[NP], rc[NP], rd[NP];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != NP)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int k = 0; k < NP; k++) {
        sc[k] = rc[k] = 1;
        sd[k] = 2 * k;
        rd[k] = 2 * k + 1;
        a[2 * k] = a[2 * k + 1] = k;
    }
    MPI_Ialltoallv(a, sc, sd, MPI_INT, a, rc, rd, MPI_INT, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
