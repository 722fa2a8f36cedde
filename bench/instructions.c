/*
 * instructions.c - one loop of MPI calls on a single process, for counting
 * the instructions the checker adds per call with valgrind's callgrind
 * (scripts/bench instructions). Instruction counts do not depend on the
 * other work of a shared machine, so they compare across runs and days.
 *
 *   query      MPI_Comm_rank (no roles checked: the wrapper's floor)
 *   message    MPI_Irecv + MPI_Isend of 8 bytes to itself + MPI_Waitall:
 *              one message, sent and received
 *   barrier    MPI_Barrier on MPI_COMM_WORLD (one process)
 *   allreduce  MPI_Allreduce of one double
 *   poll       MPI_Test of a receive nobody has sent to yet (a loop that
 *              waits for a message by polling, as hpcc's RandomAccess does
 *              with MPI_Testany); the message comes after the loop
 *   pollany    MPI_Testany of an MPI_ANY_SOURCE/MPI_ANY_TAG receive
 *              nobody has sent to yet: hpcc's MPIRandomAccess calls it once
 *              per table update (on one receive up to 4 ranks); the
 *              message comes after the loop
 *
 * Usage: instructions LOOP ITERATIONS. Run at two iteration counts, the
 * difference divided by the difference of the counts is the cost of one
 * iteration with MPI_Init and MPI_Finalize cancelled out.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3 || atoi(argv[2]) <= 0) {
        fprintf(stderr, "usage: instructions query|message|barrier|allreduce|poll|pollany ITERATIONS\n");
        return 2;
    }
    const char *loop = argv[1];
    int n = atoi(argv[2]), rank, r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (strcmp(loop, "query") == 0) {
        for (int i = 0; i < n; i++)
            MPI_Comm_rank(MPI_COMM_WORLD, &r);
    } else if (strcmp(loop, "message") == 0) {
        double out = 1, in = 0;
        MPI_Request reqs[2];
        MPI_Status st[2];
        for (int i = 0; i < n; i++) {
            MPI_Irecv(&in, 8, MPI_BYTE, rank, 7, MPI_COMM_WORLD, &reqs[0]);
            MPI_Isend(&out, 8, MPI_BYTE, rank, 7, MPI_COMM_WORLD, &reqs[1]);
            MPI_Waitall(2, reqs, st);
        }
    } else if (strcmp(loop, "barrier") == 0) {
        for (int i = 0; i < n; i++)
            MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(loop, "allreduce") == 0) {
        double in = 1, out;
        for (int i = 0; i < n; i++)
            MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(loop, "poll") == 0) {
        double in = 0, out = 1;
        int flag = 0;
        MPI_Request req;
        MPI_Irecv(&in, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD, &req);
        for (int i = 0; i < n; i++)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (strcmp(loop, "pollany") == 0) {
        double in = 0, out = 1;
        int flag = 0, index;
        MPI_Request req;
        MPI_Status st;
        MPI_Irecv(&in, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
        for (int i = 0; i < n; i++)
            MPI_Testany(1, &req, &index, &flag, &st);
        MPI_Send(&out, 1, MPI_DOUBLE, rank, 7, MPI_COMM_WORLD);
        MPI_Wait(&req, &st);
    } else {
        fprintf(stderr, "instructions: unknown loop '%s'\n", loop);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Finalize();
    return 0;
}
