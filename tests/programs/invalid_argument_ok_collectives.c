/* EXPECT: OK  NP: 4 */
/*
 * Checks: collective arguments that the standard declares not significant (or
 * replaced by MPI_IN_PLACE) and that a naive checker would flag; no finding
 * expected. The root is the last rank, not 0, so a checker that assumes root 0
 * is caught too.
 *
 *  - MPI_Allreduce and MPI_Allgather with MPI_IN_PLACE (MPI-4.0 sec. 6.9.6,
 *    6.7): the send arguments of Allgather are then ignored, so sendcount 0 and
 *    sendtype MPI_DATATYPE_NULL are fine.
 *  - MPI_Gather, at the root MPI_IN_PLACE with sendcount 0 and sendtype
 *    MPI_DATATYPE_NULL (with MPI_IN_PLACE "sendcount and sendtype are
 *    ignored", sec. 6.5); at the other ranks recvbuf NULL, recvcount 0,
 *    recvtype MPI_DATATYPE_NULL (the receive arguments are significant only
 *    at root).
 *  - MPI_Gatherv at non-roots with recvbuf, recvcounts and displs NULL and
 *    recvtype MPI_DATATYPE_NULL (same rule).
 *  - MPI_Scatter at non-roots with sendbuf NULL, sendcount 0, sendtype
 *    MPI_DATATYPE_NULL (sendbuf, sendcount and sendtype are significant only
 *    at root, sec. 6.6); at the root once with MPI_IN_PLACE as recvbuf, recvcount
 *    0 and recvtype MPI_DATATYPE_NULL (ignored then).
 *  - MPI_Reduce with recvbuf NULL at the non-roots (significant only at
 *    root, sec. 6.9.1) and with MPI_IN_PLACE as sendbuf at the root.
 */
#include <mpi.h>
#include <stdio.h>

static void check(int ok, int rank, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result of %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int rank, size, root, i, x, y;
    int vec[4], all[16], part[16];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 16)
        MPI_Abort(MPI_COMM_WORLD, 2);
    root = size - 1;

    /* Allreduce in place. */
    for (i = 0; i < 4; i++)
        vec[i] = rank + i;
    MPI_Allreduce(MPI_IN_PLACE, vec, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check(vec[0] == size * (size - 1) / 2 && vec[3] == vec[0] + 3 * size, rank,
          "MPI_Allreduce(MPI_IN_PLACE)");

    /* Allgather in place: each rank's block is already in all[rank]. */
    for (i = 0; i < size; i++)
        all[i] = -1;
    all[rank] = 100 + rank;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (i = 0; i < size; i++)
        check(all[i] == 100 + i, rank, "MPI_Allgather(MPI_IN_PLACE)");

    /* Gather: root in place, non-roots without receive arguments. */
    x = 10 * rank;
    if (rank == root) {
        for (i = 0; i < size; i++)
            all[i] = -1;
        all[root] = x;
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, root,
                   MPI_COMM_WORLD);
        for (i = 0; i < size; i++)
            check(all[i] == 10 * i, rank, "MPI_Gather(MPI_IN_PLACE)");
    } else {
        MPI_Gather(&x, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
    }

    /* Gatherv: non-roots pass NULL counts and displacements. */
    if (rank == root) {
        int counts[16], displs[16];
        for (i = 0; i < size; i++) {
            counts[i] = 1;
            displs[i] = size - 1 - i;       /* reversed order */
        }
        MPI_Gatherv(&x, 1, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
        for (i = 0; i < size; i++)
            check(all[size - 1 - i] == 10 * i, rank, "MPI_Gatherv");
    } else {
        MPI_Gatherv(&x, 1, MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, root,
                    MPI_COMM_WORLD);
    }

    /* Scatter: non-roots pass no send arguments. */
    if (rank == root) {
        for (i = 0; i < size; i++)
            part[i] = 7 * i;
        MPI_Scatter(part, 1, MPI_INT, &y, 1, MPI_INT, root, MPI_COMM_WORLD);
    } else {
        MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, &y, 1, MPI_INT, root, MPI_COMM_WORLD);
    }
    check(y == 7 * rank, rank, "MPI_Scatter");

    /* Scatter with MPI_IN_PLACE as the root's recvbuf: the root keeps its
     * block where it is, recvcount/recvtype are ignored. */
    y = -1;
    if (rank == root) {
        for (i = 0; i < size; i++)
            part[i] = 3 * i;
        MPI_Scatter(part, 1, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root,
                    MPI_COMM_WORLD);
        y = part[root];
    } else {
        MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, &y, 1, MPI_INT, root, MPI_COMM_WORLD);
    }
    check(y == 3 * rank, rank, "MPI_Scatter(MPI_IN_PLACE)");

    /* Reduce: non-roots have no receive buffer. */
    x = rank + 1;
    if (rank == root) {
        y = 0;
        MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        check(y == size * (size + 1) / 2, rank, "MPI_Reduce");
    } else {
        MPI_Reduce(&x, NULL, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    }
    /* Reduce in place at the root. */
    x = rank + 1;
    if (rank == root) {
        MPI_Reduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
        check(x == size, rank, "MPI_Reduce(MPI_IN_PLACE)");
    } else {
        MPI_Reduce(&x, NULL, 1, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
    }

    if (rank == 0)
        printf("invalid_argument_ok_collectives: done\n");
    MPI_Finalize();
    return 0;
}
