/*
 * call_overhead.c - what the checker adds to an MPI call, per call.
 *
 * Three loops on each rank, timed with MPI_Wtime:
 *   query     MPI_Comm_rank (no roles checked: the wrapper's floor)
 *   selfmsg   MPI_Isend + MPI_Irecv to itself + MPI_Waitall (roles checked,
 *             two requests tracked and completed)
 *   pingpong  MPI_Send / MPI_Recv of 8 bytes between ranks 0 and 1
 * Prints one line per loop: name, iterations, nanoseconds per iteration.
 * Run it plain and under the checker in one go: scripts/bench.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 200000, r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
    double t_query = MPI_Wtime() - t0;

    int out = 1, in = 0;
    MPI_Request reqs[2];
    MPI_Status st[2];
    t0 = MPI_Wtime();
    for (int i = 0; i < iters / 4; i++) {
        MPI_Irecv(&in, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &reqs[0]);
        MPI_Isend(&out, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, st);
    }
    double t_self = MPI_Wtime() - t0;

    double buf = 0, t_pp = 0;
    int pp = iters / 20;
    MPI_Barrier(MPI_COMM_WORLD);
    if (size >= 2 && rank < 2) {
        t0 = MPI_Wtime();
        for (int i = 0; i < pp; i++) {
            if (rank == 0) {
                MPI_Send(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(&buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
            }
        }
        t_pp = MPI_Wtime() - t0;
    }
    if (rank == 0) {
        printf("query %d %.1f\n", iters, t_query * 1e9 / iters);
        printf("selfmsg %d %.1f\n", iters / 4, t_self * 1e9 / (iters / 4));
        if (size >= 2)
            printf("pingpong %d %.1f\n", pp, t_pp * 1e9 / pp);
    }
    MPI_Finalize();
    return 0;
}
