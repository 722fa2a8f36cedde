/* EXPECT: OK  NP: 3 */
/*
 * Checks: persistent requests, correctly matched.
 *  1. Ping-pong between ranks 0 and 1, 20 iterations, with MPI_Send_init/
 *     MPI_Recv_init created once: rank 0 restarts both with MPI_Startall and
 *     completes them with MPI_Waitall; rank 1 uses MPI_Start + MPI_Wait on
 *     its receive, then on its send. All requests are then MPI_Request_free'd.
 *  2. Rank 0 restarts one MPI_Recv_init with MPI_ANY_SOURCE 10 times; ranks
 *     1 and 2 each restart an MPI_Send_init 5 times. The status tells the
 *     source; per source the values arrive in order.
 *
 * Why it is correct: a persistent request is started as often as needed and
 * is inactive again after each completion; it communicates like the
 * corresponding nonblocking call (MPI-3.1 sec. 3.9). Types (MPI_INT) and
 * counts agree, every message is received.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, it, src, sval = 0, rval = 0, bad = 0, next[3] = {0, 0, 0};
    MPI_Request r[2];
    MPI_Status sts[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        MPI_Send_init(&sval, 1, MPI_INT, 1, 20, MPI_COMM_WORLD, &r[0]);
        MPI_Recv_init(&rval, 1, MPI_INT, 1, 21, MPI_COMM_WORLD, &r[1]);
        for (it = 0; it < 20; it++) {
            sval = it;
            MPI_Startall(2, r);
            MPI_Waitall(2, r, sts);
            bad += rval != it + 1000;
        }
    } else if (rank == 1) {
        MPI_Recv_init(&rval, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, &r[0]);
        MPI_Send_init(&sval, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, &r[1]);
        for (it = 0; it < 20; it++) {
            MPI_Start(&r[0]);
            MPI_Wait(&r[0], &sts[0]);
            sval = rval + 1000;
            MPI_Start(&r[1]);
            MPI_Wait(&r[1], &sts[1]);
        }
    }
    if (rank < 2) {
        MPI_Request_free(&r[0]);
        MPI_Request_free(&r[1]);
    }

    if (rank == 0) {
        MPI_Recv_init(&rval, 1, MPI_INT, MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, &r[0]);
        for (it = 0; it < 10; it++) {
            MPI_Start(&r[0]);
            MPI_Wait(&r[0], &sts[0]);
            src = sts[0].MPI_SOURCE;
            if (src != 1 && src != 2) { bad++; continue; }
            bad += rval != 100 * src + next[src]++;
        }
        bad += next[1] != 5 || next[2] != 5;
        MPI_Request_free(&r[0]);
    } else if (rank == 1 || rank == 2) {
        MPI_Send_init(&sval, 1, MPI_INT, 0, 30, MPI_COMM_WORLD, &r[0]);
        for (it = 0; it < 5; it++) {
            sval = 100 * rank + it;
            MPI_Start(&r[0]);
            MPI_Wait(&r[0], &sts[0]);
        }
        MPI_Request_free(&r[0]);
    }
    if (bad)
        printf("rank %d: %d wrong values\n", rank, bad);

    MPI_Finalize();
    return 0;
}
