/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: strict mode's model of synchronous sends (docs/design.md, "Sends
 * let go without their acknowledgment") finds no cycle where the order of
 * the calls breaks every one, although sends are let go all along:
 *  1. rank 0 sends to rank 1 and then receives its answer; rank 1 computes,
 *     receives, then answers;
 *  2. rank 0's send to a computing rank 1 is let go, and rank 0 then
 *     exchanges messages with rank 2 (a notice tells rank 2 of the send
 *     let go; rank 2 never receives it);
 *  3. a nonblocking halo exchange whose ranks compute unevenly;
 *  5. rank 0's send to a computing rank 1 is let go, and its next send,
 *     to rank 2, tells rank 2 so (the data's dependency); rank 2 then
 *     sends to rank 1, which receives rank 0's message first;
 *  4. a master that sends tasks to workers that compute before each
 *     receive, and takes their results with MPI_ANY_SOURCE.
 *
 * Why no finding: with MPI_Ssend semantics every send here completes:
 * each receive it needs is posted without waiting for anything that
 * waits for the send (in 1 rank 1 receives before it answers; in 2 rank
 * 2's receive needs only rank 0's later send; in 3 every receive is posted
 * before the sends; in 4 a worker's result is taken by the master's next
 * receive whatever it sends meanwhile; in 5 rank 1 takes rank 0's message
 * before rank 2's).
 *
 * How this fails when the model is wrong: a dependency used for a receive
 * posted before it arose (the halo's receives are posted before the sends
 * complete; in 5 rank 1's first receive before its second completes), or
 * a notice's dependency applied to the wrong send, reports a potential
 * deadlock here.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int rank, size, out, in = -1, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out = rank;
    /* 1: receiver computes, then receives, then answers */
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Recv(&in, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    /* 2: sends let go to a busy rank, receives from a third */
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 2, 5, MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Recv(&in, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        MPI_Send(&out, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    /* 3: a halo exchange whose ranks compute unevenly, nonblocking */
    for (i = 0; i < 30; i++) {
        int l = (rank + size - 1) % size, r = (rank + 1) % size, a = -1, b = -1;
        MPI_Request q[4];
        MPI_Status st4[4];
        if ((i + rank) % 3 == 0)
            usleep(20000 * (rank + 1));
        MPI_Irecv(&a, 1, MPI_INT, l, 7, MPI_COMM_WORLD, &q[0]);
        MPI_Irecv(&b, 1, MPI_INT, r, 7, MPI_COMM_WORLD, &q[1]);
        MPI_Isend(&out, 1, MPI_INT, l, 7, MPI_COMM_WORLD, &q[2]);
        MPI_Isend(&out, 1, MPI_INT, r, 7, MPI_COMM_WORLD, &q[3]);
        MPI_Waitall(4, q, st4);
    }
    /* 5: a send started after one let go tells its receiver, whose own
     * next message is received after the one let go */
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
        MPI_Send(&out, 1, MPI_INT, 2, 11, MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Recv(&in, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&in, 1, MPI_INT, 2, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        MPI_Recv(&in, 1, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 1, 12, MPI_COMM_WORLD);
    }
    /* 4: master and workers, workers compute before each receive (last:
     * its wildcard receives end the model on rank 0) */
    if (rank == 0) {
        int task, w;
        for (task = 0; task < 3 * (size - 1); task++) {
            MPI_Status st;
            if (task >= size - 1) {
                MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
                w = st.MPI_SOURCE;
            } else {
                w = task + 1;
            }
            MPI_Send(&task, 1, MPI_INT, w, 8, MPI_COMM_WORLD);
        }
        for (w = 1; w < size; w++) {
            MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        for (w = 1; w < size; w++) {
            int stop = -1;
            MPI_Send(&stop, 1, MPI_INT, w, 8, MPI_COMM_WORLD);
        }
    } else {
        for (;;) {
            int task;
            usleep(50000);
            MPI_Recv(&task, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (task < 0)
                break;
            MPI_Send(&task, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
