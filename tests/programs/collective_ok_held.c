/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: nonblocking collectives the checker holds until their handshake
 * ended (src/coll/held.c) keep MPI's rules: (1) two communicators whose
 * nonblocking broadcasts the ranks start in opposite orders, then wait
 * for together; (2) an MPI_Iallreduce followed by a blocking MPI_Barrier
 * on the same communicator before its wait (MPI matches collectives per
 * communicator in call order: the held one must reach MPI first); (3) a
 * derived datatype and a user operation freed right after the calls that
 * use them, and a communicator freed right after an MPI_Ibarrier on it,
 * before the waits (MPI-4.0 sec. 5.1.9, 6.9.5, 7.4.3: pending operations
 * complete normally); (4) an MPI_Ialltoallv whose count arrays stay valid,
 * with MPI_Testall polled until done.
 *
 * Why it must finish silently: every call is correct; the checker must
 * never change what MPI does with them, hang them, or report them.
 */
#include <mpi.h>
#include <stdio.h>

static void addone(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int rank, size, a = 0, b = 0, errs = 0;
    MPI_Comm ca, cb, cc;
    MPI_Request r[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &ca);
    MPI_Comm_dup(MPI_COMM_WORLD, &cb);

    /* (1) opposite orders on two communicators */
    if (rank == 0) {
        a = 11;
        b = 22;
        MPI_Ibcast(&a, 1, MPI_INT, 0, ca, &r[0]);
        MPI_Ibcast(&b, 1, MPI_INT, 0, cb, &r[1]);
    } else {
        MPI_Ibcast(&b, 1, MPI_INT, 0, cb, &r[1]);
        MPI_Ibcast(&a, 1, MPI_INT, 0, ca, &r[0]);
    }
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    errs += a != 11 || b != 22;

    /* (2) a blocking collective before the wait, same communicator */
    int one = 1, sum = 0;
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, ca, &r[0]);
    MPI_Barrier(ca);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    errs += sum != size;

    /* (3) handles freed before the waits */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int v[2] = {rank ? 0 : 5, rank ? 0 : 6};
    MPI_Ibcast(v, 1, pair, 0, ca, &r[0]);
    MPI_Type_free(&pair);
    MPI_Op op;
    MPI_Op_create(addone, 1, &op);
    int x = rank + 1, y = 0;
    MPI_Iallreduce(&x, &y, 1, MPI_INT, op, cb, &r[1]);
    MPI_Op_free(&op);
    MPI_Comm_dup(MPI_COMM_WORLD, &cc);
    MPI_Ibarrier(cc, &r[2]);
    MPI_Comm_free(&cc);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    errs += v[0] != 5 || v[1] != 6 || y != size * (size + 1) / 2;

    /* (4) polled to completion */
    int sb[16], rb[16], counts[16], displs[16];
    for (int i = 0; i < size && i < 16; i++) {
        counts[i] = 1;
        displs[i] = i;
        sb[i] = rank * 100 + i;
    }
    MPI_Ialltoallv(sb, counts, displs, MPI_INT, rb, counts, displs, MPI_INT, ca, &r[0]);
    for (int done = 0; !done;)
        MPI_Testall(1, r, &done, MPI_STATUSES_IGNORE);
    for (int i = 0; i < size && i < 16; i++)
        errs += rb[i] != i * 100 + rank;

    MPI_Comm_free(&ca);
    MPI_Comm_free(&cb);
    if (errs)
        printf("collective_ok_held: %d wrong results\n", errs);
    MPI_Finalize();
    return errs != 0;
}
