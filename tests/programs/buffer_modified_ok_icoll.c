/* EXPECT: OK  NP: 3 */
/*
 * Checks: writes near active nonblocking collectives and MPI_Isendrecv
 * that the standard allows; none may be reported as buffer-modified.
 *  - MPI_Iscatterv and MPI_Ialltoallv whose send blocks leave gaps: the
 *    gaps are written while the operation is active (only the blocks are
 *    its send buffer);
 *  - MPI_Ibcast, MPI_Igather, MPI_Ireduce_scatter, MPI_Iscatter: send
 *    buffers rewritten only after MPI_Wait or a successful MPI_Test;
 *  - MPI_Iallreduce with MPI_IN_PLACE, MPI_Ibarrier;
 *  - MPI_Ialltoall with a derived datatype the program frees while the
 *    operation is active (allowed: MPI-4.0 sec. 5.1.9);
 *  - MPI_Isendrecv rewritten after MPI_Wait, MPI_Isendrecv_replace, and an
 *    MPI_Isendrecv of a vector type freed before MPI_Wait.
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
    int rank, size, sbuf[4 * NP], rbuf[4 * NP], counts[NP], displs[NP], rcounts[NP], rdispls[NP];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != NP)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int k = 0; k < NP; k++) {
        counts[k] = rcounts[k] = 2;
        displs[k] = 4 * k;
        rdispls[k] = 2 * k;
    }

    /* Gaps of an MPI_Iscatterv (root 1) and an MPI_Ialltoallv. */
    for (int i = 0; i < 4 * NP; i++)
        sbuf[i] = 100 * rank + i;
    MPI_Iscatterv(sbuf, counts, displs, MPI_INT, rbuf, 2, MPI_INT, 1, MPI_COMM_WORLD, &r);
    if (rank == 1)
        for (int k = 0; k < NP; k++)
            sbuf[4 * k + 2] = sbuf[4 * k + 3] = -7;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect(rbuf[1], 100 + 4 * rank + 1, "MPI_Iscatterv");
    MPI_Ialltoallv(sbuf, counts, displs, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD, &r);
    for (int k = 0; k < NP; k++)
        sbuf[4 * k + 2] = -8;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect(rbuf[2 * 2], 100 * 2 + 4 * rank, "MPI_Ialltoallv");

    /* Rewritten after completion. */
    int v = rank == 0 ? 42 : 0;
    MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect(v, 42, "MPI_Ibcast");
    v = rank;
    MPI_Igather(&v, 1, MPI_INT, rbuf, 1, MPI_INT, 2, MPI_COMM_WORLD, &r);
    int flag = 0;
    while (!flag)
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    v = -1;
    if (rank == 2)
        expect(rbuf[1], 1, "MPI_Igather");
    for (int i = 0; i < NP; i++)
        sbuf[i] = i + rank;
    MPI_Ireduce_scatter(sbuf, &v, (int[NP]){1, 1, 1}, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    sbuf[0] = -1;
    expect(v, 3 * rank + 3, "MPI_Ireduce_scatter");
    for (int i = 0; i < NP; i++)
        sbuf[i] = 10 * i;
    MPI_Iscatter(sbuf, 1, MPI_INT, &v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    sbuf[1] = -1;
    expect(v, 10 * rank, "MPI_Iscatter");

    /* In place, and no data. */
    v = 1;
    MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect(v, NP, "MPI_Iallreduce in place");
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    /* A datatype freed while the operation is active. */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int i = 0; i < 2 * NP; i++)
        sbuf[i] = 100 * rank + i;
    MPI_Ialltoall(sbuf, 1, pair, rbuf, 1, pair, MPI_COMM_WORLD, &r);
    MPI_Type_free(&pair);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    expect(rbuf[2 * 1 + 1], 100 + 2 * rank + 1, "MPI_Ialltoall");

    /* MPI_Isendrecv between ranks 0 and 1 (MPI 4.0: not in Open MPI 4.1). */
#if MPI_VERSION >= 4
    if (rank < 2) {
        int other = 1 - rank;
        double s[8], q[8];
        for (int i = 0; i < 8; i++)
            s[i] = rank + i;
        MPI_Isendrecv(s, 8, MPI_DOUBLE, other, 0, q, 8, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        s[0] = -1;
        expect((int)q[3], other + 3, "MPI_Isendrecv");
        MPI_Isendrecv_replace(s, 8, MPI_DOUBLE, other, 1, other, 1, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        expect((int)s[3], other + 3, "MPI_Isendrecv_replace");
        /* Its datatypes freed before MPI_Wait (allowed: MPI-4.0 sec.
         * 5.1.9); the halves are compared at MPI_Wait with the checker's
         * own copies of them. */
        MPI_Datatype every_other;
        MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other);
        MPI_Type_commit(&every_other);
        for (int i = 0; i < 8; i++)
            s[i] = rank + i;
        MPI_Isendrecv(s, 1, every_other, other, 2, q, 1, every_other, other, 2, MPI_COMM_WORLD, &r);
        MPI_Type_free(&every_other);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        expect((int)q[2], other + 2, "MPI_Isendrecv, freed vector type");
    }
#endif
    MPI_Finalize();
    return failed;
}
