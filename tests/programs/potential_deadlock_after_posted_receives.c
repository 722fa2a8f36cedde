/* EXPECT: potential-deadlock  NP: 2  MODE: strict */
/*
 * Checks: a strict send whose receive was posted before it was sent does
 * not wait for the receiver (docs/design.md, "Notices of posted
 * receives"), so a call site that sends to a computing receiver keeps
 * its strict waits, and finds the unsafe exchange made from it later.
 *
 * Six times rank 1 posts MPI_Irecv, computes 50 ms outside MPI, then
 * waits; rank 0 sends to it from send_to(). Then both ranks send_to() each
 * other and receive: the unsafe exchange (potential_deadlock_send_send_
 * small.c), from the same call site of rank 0.
 *
 * How this fails without the notices: rank 0's strict send waited for
 * rank 1 to run MPI again; the early probe found rank 1 computing each
 * time and let the send go without a verdict, and after four of those the
 * call site stops waiting for good, so rank 0's send of the exchange went
 * on unwaited and the potential deadlock was not reported.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void send_to(int peer, int value)
{
    MPI_Send(&value, 1, MPI_INT, peer, 3, MPI_COMM_WORLD);
}

static void compute(double seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
}

int main(int argc, char **argv)
{
    int rank, in = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 6; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            MPI_Request req;
            MPI_Irecv(&in, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
            compute(0.05);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            compute(0.005);     /* the receive is posted before the send */
            send_to(1, i);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    send_to(1 - rank, rank);
    MPI_Recv(&in, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
