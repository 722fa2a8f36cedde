/* EXPECT: OK  NP: 4 */
/*
 * Checks: every request is completed or freed, through each of the ways the
 * standard offers (MPI-4.0 sec. 3.7.3, 3.7.5, 3.9); no finding expected.
 *  - MPI_Isend/MPI_Irecv around a ring, completed by MPI_Waitall; the array
 *    also holds MPI_REQUEST_NULL, which every completion call accepts.
 *  - the same, completed by polling MPI_Testall, and one request by polling
 *    MPI_Test.
 *  - rank 0 receives from every other rank, completed one at a time with
 *    MPI_Waitany (until it returns MPI_UNDEFINED), then again with
 *    MPI_Waitsome (until outcount is MPI_UNDEFINED).
 *  - persistent requests (MPI_Send_init/MPI_Recv_init) started three times
 *    with MPI_Startall, completed with MPI_Waitall each time, then freed with
 *    MPI_Request_free while inactive (the way to release them); a persistent
 *    request freed without ever being started.
 * Status arrays are real arrays: MPICH 4.0's mpi.h makes gcc 12 warn
 * (-Wstringop-overflow) about MPI_STATUSES_IGNORE in the array calls.
 */
#include <mpi.h>
#include <stdio.h>

#define MAXP 16

static void check(int ok, int rank, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result of %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int rank, size, left, right, i, k, flag, idx, outcount, done;
    int sendval, recvval, vals[MAXP], indices[MAXP];
    MPI_Request reqs[MAXP];
    MPI_Status sts[MAXP], st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAXP)
        MPI_Abort(MPI_COMM_WORLD, 2);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;

    /* Ring with MPI_Waitall; reqs[2] is MPI_REQUEST_NULL. */
    sendval = rank;
    MPI_Irecv(&recvval, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&sendval, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &reqs[1]);
    reqs[2] = MPI_REQUEST_NULL;
    MPI_Waitall(3, reqs, sts);
    check(recvval == left, rank, "MPI_Waitall ring");

    /* Ring with MPI_Testall polling. */
    sendval = 100 + rank;
    MPI_Irecv(&recvval, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&sendval, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &reqs[1]);
    flag = 0;
    while (!flag)
        MPI_Testall(2, reqs, &flag, sts);
    check(recvval == 100 + left, rank, "MPI_Testall ring");

    /* One request by MPI_Test polling, the other by MPI_Wait. */
    MPI_Irecv(&recvval, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&sendval, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &reqs[1]);
    flag = 0;
    while (!flag)
        MPI_Test(&reqs[0], &flag, &st);
    MPI_Wait(&reqs[1], &st);

    /* Fan-in to rank 0 with MPI_Waitany. */
    if (rank == 0) {
        for (i = 1; i < size; i++)
            MPI_Irecv(&vals[i], 1, MPI_INT, i, 4, MPI_COMM_WORLD, &reqs[i - 1]);
        done = 0;
        for (;;) {
            MPI_Waitany(size - 1, reqs, &idx, &st);
            if (idx == MPI_UNDEFINED)
                break;
            check(vals[idx + 1] == 10 * (idx + 1), rank, "MPI_Waitany");
            done++;
        }
        check(done == size - 1, rank, "MPI_Waitany count");
    } else {
        sendval = 10 * rank;
        MPI_Isend(&sendval, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &reqs[0]);
        MPI_Wait(&reqs[0], &st);
    }

    /* Fan-in to rank 0 with MPI_Waitsome. */
    if (rank == 0) {
        for (i = 1; i < size; i++)
            MPI_Irecv(&vals[i], 1, MPI_INT, i, 5, MPI_COMM_WORLD, &reqs[i - 1]);
        done = 0;
        for (;;) {
            MPI_Waitsome(size - 1, reqs, &outcount, indices, sts);
            if (outcount == MPI_UNDEFINED)
                break;
            for (k = 0; k < outcount; k++)
                check(vals[indices[k] + 1] == 20 * (indices[k] + 1), rank, "MPI_Waitsome");
            done += outcount;
        }
        check(done == size - 1, rank, "MPI_Waitsome count");
    } else {
        sendval = 20 * rank;
        MPI_Send(&sendval, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }

    /* Persistent requests: three rounds, then freed while inactive. */
    MPI_Recv_init(&recvval, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&sendval, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &reqs[1]);
    for (k = 0; k < 3; k++) {
        sendval = 1000 * k + rank;
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, sts);
        check(recvval == 1000 * k + left, rank, "persistent round");
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);

    /* A persistent request never started, freed. */
    MPI_Send_init(&sendval, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Request_free(&reqs[0]);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("request_leak_ok_completion: done\n");
    MPI_Finalize();
    return 0;
}
