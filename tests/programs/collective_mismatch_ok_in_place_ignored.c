/* EXPECT: OK  NP: 4 */
/*
 * Checks: MPI_IN_PLACE in buffer arguments the standard makes insignificant
 * is not a misuse: a non-root's recvbuf of MPI_Gather, MPI_Gatherv (as
 * Quantum ESPRESSO's mp_gatherv_inplace passes it), MPI_Igatherv and
 * MPI_Reduce, a non-root's sendbuf of MPI_Scatter and MPI_Scatterv.
 *
 * Why it is correct: those buffers are "significant only at root" (MPI-4.0
 * sec. 6.5, 6.6, 6.9.1); an ignored argument may hold any value. The
 * results are checked, so the program fails if MPI read the constant as a
 * buffer. (On an intercommunicator MPI_IN_PLACE stays a misuse even in an
 * ignored argument, which the MPIs refuse too: src/coll/record.c.)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "wrong result: %s\n", what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int all[16], counts[16], displs[16], mine = rank + 1, sum = 0, got = 0;
    for (int i = 0; i < size; i++) {
        all[i] = rank == 0 ? i + 1 : -1;
        counts[i] = 1;
        displs[i] = i;
    }

    /* Rooted at 0: the other ranks' ignored buffer is MPI_IN_PLACE. */
    if (rank == 0) {
        MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
        sum = mine;
        MPI_Reduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else {
        MPI_Gatherv(&mine, 1, MPI_INT, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
        MPI_Gather(&mine, 1, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mine, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        for (int i = 0; i < size; i++)
            expect(all[i] == i + 1, "MPI_Gather(v)");
        expect(sum == size * (size + 1) / 2, "MPI_Reduce");
    }

    /* Nonblocking, rooted at the last rank. */
    MPI_Request req;
    int root = size - 1;
    if (rank == root)
        MPI_Igatherv(&mine, 1, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &req);
    else
        MPI_Igatherv(&mine, 1, MPI_INT, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == root)
        for (int i = 0; i < size; i++)
            expect(all[i] == i + 1, "MPI_Igatherv");

    /* Scatters from 1: the other ranks' ignored sendbuf is MPI_IN_PLACE. */
    for (int i = 0; i < size; i++)
        all[i] = 10 * (i + 1);
    const void *from = rank == 1 ? (const void *)all : MPI_IN_PLACE;
    MPI_Scatter(from, 1, MPI_INT, &got, 1, MPI_INT, 1, MPI_COMM_WORLD);
    expect(got == 10 * (rank + 1), "MPI_Scatter");
    got = 0;
    MPI_Scatterv(from, counts, displs, MPI_INT, &got, 1, MPI_INT, 1, MPI_COMM_WORLD);
    expect(got == 10 * (rank + 1), "MPI_Scatterv");

    if (rank == 0)
        printf("ok\n");
    MPI_Finalize();
    return 0;
}
