/* EXPECT: OK  NP: 4 */
/*
 * Checks: a plainly correct program running collectives on communicators
 * split from MPI_COMM_WORLD; no finding expected.
 * MPI_COMM_WORLD is split by parity (MPI_Comm_split, key = -rank so the order
 * is reversed) and each half runs, in the same order on all its ranks:
 * MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Allgather, MPI_Gatherv,
 * MPI_Scatterv, MPI_Alltoall, MPI_Scan, MPI_Exscan, MPI_Reduce_scatter_block,
 * MPI_Barrier. Then MPI_Comm_dup of a half, an MPI_Allreduce on it, and the
 * two halves' results are combined on MPI_COMM_WORLD. Collectives on
 * different communicators do not interfere (MPI-4.0 sec. 6.14), so the two
 * halves running different roots at the same time is fine. All
 * communicators created are freed.
 */
#include <mpi.h>
#include <stdio.h>

#define MAXP 16

static void check(int ok, int rank, const char *what)
{
    if (!ok) {
        fprintf(stderr, "world rank %d: wrong result of %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int wrank, wsize, color, rank, size, root, i, x, sum, total;
    int all[MAXP], counts[MAXP], displs[MAXP], sendv[MAXP], recvv[MAXP * MAXP];
    int a2a_send[MAXP], a2a_recv[MAXP], scan, exscan, rsb[MAXP], rsb_out;
    MPI_Comm half, half_dup;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize > MAXP)
        MPI_Abort(MPI_COMM_WORLD, 2);

    color = wrank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, -wrank, &half);
    MPI_Comm_rank(half, &rank);
    MPI_Comm_size(half, &size);
    root = size - 1;            /* the lowest world rank of the half */

    x = (rank == root) ? 1000 + color : -1;
    MPI_Bcast(&x, 1, MPI_INT, root, half);
    check(x == 1000 + color, wrank, "MPI_Bcast");

    sum = 0;
    x = wrank;
    MPI_Reduce(&x, &sum, 1, MPI_INT, MPI_SUM, root, half);
    MPI_Allreduce(&x, &total, 1, MPI_INT, MPI_SUM, half);
    if (rank == root)
        check(sum == total, wrank, "MPI_Reduce vs MPI_Allreduce");

    MPI_Allgather(&wrank, 1, MPI_INT, all, 1, MPI_INT, half);
    for (i = 0; i < size; i++)
        check(all[i] % 2 == color, wrank, "MPI_Allgather");

    /* Gatherv: rank r contributes r+1 copies of its world rank. */
    for (i = 0; i <= rank; i++)
        sendv[i] = wrank;
    for (i = 0; i < size; i++) {
        counts[i] = i + 1;
        displs[i] = i == 0 ? 0 : displs[i - 1] + counts[i - 1];
    }
    MPI_Gatherv(sendv, rank + 1, MPI_INT, recvv, counts, displs, MPI_INT, root, half);
    if (rank == root)
        for (i = 0; i < size; i++)
            check(recvv[displs[i]] == all[i] && recvv[displs[i] + i] == all[i], wrank,
                  "MPI_Gatherv");

    /* Scatterv back: rank r receives r+1 values. */
    MPI_Scatterv(recvv, counts, displs, MPI_INT, sendv, rank + 1, MPI_INT, root, half);
    check(sendv[0] == wrank && sendv[rank] == wrank, wrank, "MPI_Scatterv");

    for (i = 0; i < size; i++)
        a2a_send[i] = 100 * rank + i;
    MPI_Alltoall(a2a_send, 1, MPI_INT, a2a_recv, 1, MPI_INT, half);
    for (i = 0; i < size; i++)
        check(a2a_recv[i] == 100 * i + rank, wrank, "MPI_Alltoall");

    x = 1;
    MPI_Scan(&x, &scan, 1, MPI_INT, MPI_SUM, half);
    check(scan == rank + 1, wrank, "MPI_Scan");
    exscan = -1;
    MPI_Exscan(&x, &exscan, 1, MPI_INT, MPI_SUM, half);
    if (rank > 0)               /* undefined at rank 0 */
        check(exscan == rank, wrank, "MPI_Exscan");

    for (i = 0; i < size; i++)
        rsb[i] = i;
    MPI_Reduce_scatter_block(rsb, &rsb_out, 1, MPI_INT, MPI_SUM, half);
    check(rsb_out == rank * size, wrank, "MPI_Reduce_scatter_block");

    MPI_Barrier(half);

    MPI_Comm_dup(half, &half_dup);
    x = 1;
    MPI_Allreduce(&x, &total, 1, MPI_INT, MPI_SUM, half_dup);
    check(total == size, wrank, "MPI_Allreduce on the dup");
    MPI_Comm_free(&half_dup);

    /* Combine the halves: one leader each contributes its half's size. */
    x = rank == 0 ? size : 0;
    MPI_Allreduce(&x, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check(total == wsize, wrank, "MPI_Allreduce on MPI_COMM_WORLD");

    MPI_Comm_free(&half);
    if (wrank == 0)
        printf("ok_split_collectives: done\n");
    MPI_Finalize();
    return 0;
}
