/* EXPECT: OK  NP: 4 */
/*
 * Checks: MPI_Reduce_scatter_block on an intercommunicator between {0} and
 * {1, 2, 3} (the shape of MPICH's coll/redscatbkinter): rank 0 receives
 * 3 x 4 ints, ranks 1-3 receive 4 ints each, and every member's send
 * buffer holds its local group's size x its recvcount ints (12 everywhere).
 *
 * Why it is correct: on an intercommunicator the groups' recvcounts may
 * differ; what must agree is the length of the vectors reduced, local size
 * x recvcount, in both groups (MPI-3.1 sec. 5.10.1). The checker once
 * compared the recvcounts across groups, reported a false
 * collective-mismatch and aborted the job.
 */
#include <mpi.h>
#include <stdio.h>

#define BLOCK 4

int main(int argc, char **argv)
{
    int rank, lsize, sbuf[12], rbuf[12], errs = 0;
    MPI_Comm half, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int color = rank == 0 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 7, &inter);
    MPI_Comm_size(half, &lsize);
    int recvcount = 12 / lsize;     /* 12 at rank 0, 4 at ranks 1-3 */
    for (int i = 0; i < 12; i++)
        sbuf[i] = rank + i;
    MPI_Reduce_scatter_block(sbuf, rbuf, recvcount, MPI_INT, MPI_SUM, inter);
    /* Element j of the other group's reduced vector arrives here. */
    int lrank;
    MPI_Comm_rank(half, &lrank);
    for (int i = 0; i < recvcount; i++) {
        int j = lrank * recvcount + i;
        int want = color == 0 ? (1 + j) + (2 + j) + (3 + j) : 0 + j;
        if (rbuf[i] != want)
            errs++;
    }
    if (errs)
        fprintf(stderr, "TEST FAILED: rank %d got %d wrong elements\n", rank, errs);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
