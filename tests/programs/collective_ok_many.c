/* EXPECT: OK  NP: 3 */
/*
 * Checks: a correct program with more collectives per communicator than
 * the checker's threshold for running handshakes by point-to-point
 * (MC_HS_TWIN_AFTER, src/coll/hs_p2p.c), so that both ways and the switch
 * between them run: 3 ranks (a number that is not a power of two), blocking
 * and nonblocking collectives of every shape, rotating roots, v-variants,
 * a wildcard receive of the program's own pending on the communicator all
 * the while (its mirror must never take the handshakes' messages), a split
 * communicator freed right after the threshold (its copy may still be
 * made), and a duplicate with MPI_Barrier only (whose real call the checker
 * may leave out once a handshake synchronized every member).
 *
 * Why it is correct: every member calls the same collectives in the same
 * order with matching arguments (MPI-3.1 sec. 5); the wildcard receive is
 * matched by the one message its left neighbour sends at the end.
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 70

static void check(int ok, const char *what, int i)
{
    if (!ok) {
        fprintf(stderr, "wrong result of %s in round %d\n", what, i);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int rank, size, in[3], out[9], counts[3], displs[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int pending = -1;
    MPI_Request any;
    MPI_Irecv(&pending, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &any);
    for (int i = 0; i < ROUNDS; i++) {
        int sum = 0, v = rank + i, root = i % size;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check(sum == size * i + size * (size - 1) / 2, "MPI_Allreduce", i);
        int b = rank == root ? 1000 + i : -1;
        MPI_Bcast(&b, 1, MPI_INT, root, MPI_COMM_WORLD);
        check(b == 1000 + i, "MPI_Bcast", i);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(dup);
        for (int k = 0; k < size; k++) {
            counts[k] = 1 + (k + i) % 3;
            displs[k] = 3 * k;
        }
        for (int k = 0; k < counts[rank]; k++)
            in[k] = 10 * rank + k;
        MPI_Gatherv(in, counts[rank], MPI_INT, out, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
        if (rank == root)
            for (int r = 0; r < size; r++)
                check(out[3 * r] == 10 * r, "MPI_Gatherv", i);
        MPI_Request rq;
        int x = rank * 7, all[3] = {0, 0, 0};
        MPI_Iallgather(&x, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        for (int r = 0; r < size; r++)
            check(all[r] == 7 * r, "MPI_Iallgather", i);
        if (half != MPI_COMM_NULL) {
            int hs = 0;
            MPI_Allreduce(&v, &hs, 1, MPI_INT, MPI_MAX, half);
            if (i == 40) {      /* past the threshold on this communicator */
                MPI_Comm_free(&half);
                half = MPI_COMM_NULL;
            }
        }
    }
    MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD);
    MPI_Wait(&any, MPI_STATUS_IGNORE);
    check(pending == (rank + size - 1) % size, "the wildcard receive", ROUNDS);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
