/* EXPECT: OK  NP: 3  TIMEOUT: 1 */
/*
 * Checks: nonblocking collectives every member calls, some of them late,
 * right before MPI_Finalize:
 *   1. MPI_Igather with root 0 on MPI_COMM_WORLD: ranks 1 and 2 start it
 *      and wait at once; the root calls it 0.3 s later.
 *   2. MPI_Ireduce on a communicator of ranks 1 and 2 only (rank 0 is no
 *      member and never calls it), after 40 MPI_Barrier calls on it, so
 *      its handshake goes by point-to-point (docs/design.md).
 *   3. MPI_Ibarrier on MPI_COMM_WORLD whose request every rank waits for
 *      last, rank 2 after another 0.2 s.
 *
 * Why it is correct: every member of each communicator makes each
 * collective call on it. The check for collectives a member never called
 * (coll/unmatched.c, at MPI_Finalize) must find nothing: rank 0 is not a
 * member of the second communicator, and late members are no missing ones.
 * No finding expected.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void nap(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    int rank, val, all[3] = {0, 0, 0}, sum = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    val = rank + 1;

    if (rank == 0)
        nap(0.3);
    MPI_Igather(&val, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0 && (all[0] != 1 || all[1] != 2 || all[2] != 3))
        printf("TEST FAILED: gathered %d %d %d\n", all[0], all[1], all[2]);

    MPI_Comm pair;
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &pair);
    if (pair != MPI_COMM_NULL) {
        for (int i = 0; i < 40; i++)
            MPI_Barrier(pair);
        MPI_Ireduce(&val, &sum, 1, MPI_INT, MPI_SUM, 0, pair, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rank == 1 && sum != 5)
            printf("TEST FAILED: sum %d, not 5\n", sum);
        MPI_Comm_free(&pair);
    }

    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (rank == 2)
        nap(0.2);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
