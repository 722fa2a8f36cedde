/* EXPECT: buffer-modified  NP: 3  RANKS: 0 */
/*
 * Checks: an MPI_Ialltoallv whose send blocks leave gaps in the buffer
 * (block k of 2 ints at displacement 4k). Rank 0 writes the gaps, which is
 * allowed, and then one int of the block for rank 2, which is not, before
 * MPI_Wait.
 *
 * Why it is an error: the send buffer of an active nonblocking collective
 * must not be modified until it completes (MPI-4.0 sec. 6.12); only the
 * blocks sendcounts and sdispls select are its send buffer, so the gaps
 * may change. The checker hashes the blocks (not the span) at the call and
 * at MPI_Wait.
 */
#include <mpi.h>

#define NP 3

int main(int argc, char **argv)
{
    int rank, size, sbuf[4 * NP], rbuf[2 * NP];
    int scounts[NP], sdispls[NP], rcounts[NP], rdispls[NP];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != NP)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < 4 * NP; i++)
        sbuf[i] = 100 * rank + i;
    for (int k = 0; k < NP; k++) {
        scounts[k] = rcounts[k] = 2;
        sdispls[k] = 4 * k;
        rdispls[k] = 2 * k;
    }
    MPI_Ialltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT,
                   MPI_COMM_WORLD, &r);
    if (rank == 0) {
        for (int k = 0; k < NP; k++)
            sbuf[4 * k + 2] = sbuf[4 * k + 3] = -7;     /* the gaps: allowed */
        sbuf[4 * 2 + 1] = -1;                           /* rank 2's block: not */
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
