/* EXPECT: OK  NP: 3 */
/*
 * Checks: collectives whose send and receive buffers lie in one array
 * without sharing a byte of data; none may be reported as buffer-overlap.
 *  - MPI_Alltoall sending a[0..2], receiving a[3..5];
 *  - MPI_Alltoallv and MPI_Ialltoallv with interleaved blocks: send
 *    blocks at even ints, receive blocks at odd ints (recvbuf is a + 1:
 *    the same address for both is reported, see
 *    buffer_overlap_same_address.c);
 *  - MPI_Scatterv whose root receives into a gap between its send blocks;
 *  - MPI_Gather whose root's receive part (3 ints) starts after its send
 *    int;
 *  - MPI_Allgather receiving blocks of 2 ints every 3 ints and sending
 *    the 2 ints in the holes between them (the spans interleave, the data
 *    bytes do not meet);
 *  - MPI_Bcast (one buffer), MPI_Allreduce with MPI_IN_PLACE.
 * Each result is verified.
 */
#include <mpi.h>
#include <stdio.h>

#define NP 3

static int failed;

static void expect(int have, int want, const char *what)
{
    if (have != want && !failed) {
        printf("TEST FAILED: %s: %d instead of %d\n", what, have, want);
        failed = 1;
    }
}

int main(int argc, char **argv)
{
    int rank, size, a[64];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != NP)
        MPI_Abort(MPI_COMM_WORLD, 2);

    for (int i = 0; i < 64; i++)
        a[i] = 100 * rank + i;
    MPI_Alltoall(a, 1, MPI_INT, a + NP, 1, MPI_INT, MPI_COMM_WORLD);
    expect(a[NP + 1], 100 + rank, "MPI_Alltoall");

    int sc[NP], sd[NP], rc[NP], rd[NP];
    for (int k = 0; k < NP; k++) {
        sc[k] = rc[k] = 1;
        sd[k] = 2 * k;          /* even ints */
        rd[k] = 2 * k;          /* odd ints, from a + 1 */
    }
    for (int i = 0; i < 64; i++)
        a[i] = 100 * rank + i;
    MPI_Alltoallv(a, sc, sd, MPI_INT, a + 1, rc, rd, MPI_INT, MPI_COMM_WORLD);
    expect(a[2 * 2 + 1], 200 + 2 * rank, "MPI_Alltoallv");
    for (int i = 0; i < 64; i++)
        a[i] = 100 * rank + i;
    MPI_Ialltoallv(a, sc, sd, MPI_INT, a + 1, rc, rd, MPI_INT, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect(a[1], 2 * rank, "MPI_Ialltoallv");

    /* Root 0 sends a[0], a[4], a[8] and receives its own into a[2]. */
    for (int k = 0; k < NP; k++)
        sd[k] = 4 * k;
    for (int i = 0; i < 64; i++)
        a[i] = 100 * rank + i;
    MPI_Scatterv(a, sc, sd, MPI_INT, a + 2, 1, MPI_INT, 0, MPI_COMM_WORLD);
    expect(a[2], 4 * rank, "MPI_Scatterv");

    for (int i = 0; i < 64; i++)
        a[i] = 100 * rank + i;
    MPI_Gather(a, 1, MPI_INT, a + 1, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        expect(a[1 + 2], 200, "MPI_Gather");

    /* Receive blocks of two ints every three (a[20..21], a[23..24], a[26..27]),
     * sending a[22] and a[25], which lie in the holes. */
    MPI_Datatype two_of_three, spaced, holes;
    MPI_Type_vector(1, 2, 3, MPI_INT, &two_of_three);
    MPI_Type_create_resized(two_of_three, 0, 3 * sizeof(int), &spaced);
    MPI_Type_commit(&spaced);
    MPI_Type_vector(2, 1, 3, MPI_INT, &holes);
    MPI_Type_commit(&holes);
    for (int i = 0; i < 64; i++)
        a[i] = 100 * rank + i;
    MPI_Allgather(a + 22, 1, holes, a + 20, 1, spaced, MPI_COMM_WORLD);
    expect(a[23], 122, "MPI_Allgather");
    expect(a[27], 225, "MPI_Allgather");
    MPI_Type_free(&two_of_three);
    MPI_Type_free(&spaced);
    MPI_Type_free(&holes);

    int v = rank == 1 ? 7 : 0;
    MPI_Bcast(&v, 1, MPI_INT, 1, MPI_COMM_WORLD);
    expect(v, 7, "MPI_Bcast");
    v = 1;
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    expect(v, NP, "MPI_Allreduce");
    MPI_Finalize();
    return failed;
}
