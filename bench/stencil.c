/*
 * stencil.c - a mini-app: Jacobi iterations of a 2-D Laplace problem, the
 * grid split into horizontal strips, one per rank. Each iteration exchanges
 * one row with each neighbour (MPI_Irecv + MPI_Isend + MPI_Waitall, the
 * usual halo exchange) and updates the strip; every 10 iterations an
 * MPI_Allreduce of the residual. The compute-to-communication ratio is that
 * of a real solver: with the default strip of 256 x 256 points a rank
 * computes about 0.1 ms per message.
 *
 * Rank 0 prints "app stencil SECONDS" (the iterations only, start-up left
 * out) and the final residual, which must be the same plain and checked.
 * Usage: stencil [N [ITERS]]   (strip of N x N points per rank; default 256, 10000)
 * Run it plain and under mpicheck: scripts/bench apps.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 256, iters = argc > 2 ? atoi(argv[2]) : 10000;
    if (n < 4 || iters < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: stencil [N >= 4 [ITERS >= 1]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    /* n rows of the strip plus a halo row above and below; column 0 and n-1
     * are fixed boundaries, the top row of rank 0 is held at 1. */
    size_t cells = (size_t)(n + 2) * n;
    double *u = calloc(cells, sizeof *u), *v = calloc(cells, sizeof *v);
    if (!u || !v)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        for (int j = 0; j < n; j++)
            u[j] = v[j] = 1.0;
    double residual = 0, t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        MPI_Request req[4];
        MPI_Status st[4];
        MPI_Irecv(u, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(u + (size_t)(n + 1) * n, n, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Isend(u + n, n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[2]);
        MPI_Isend(u + (size_t)n * n, n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[3]);
        MPI_Waitall(4, req, st);
        if (rank == 0)
            for (int j = 0; j < n; j++)
                u[j] = 1.0;     /* the fixed top boundary, not a halo */
        double local = 0;
        for (int i = 1; i <= n; i++)
            for (int j = 1; j < n - 1; j++) {
                size_t k = (size_t)i * n + j;
                v[k] = 0.25 * (u[k - n] + u[k + n] + u[k - 1] + u[k + 1]);
                local += fabs(v[k] - u[k]);
            }
        double *t = u;
        u = v;
        v = t;
        if (it % 10 == 9)
            MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0;
    if (rank == 0)
        printf("app stencil %.4f\nresidual %.10e\n", t, residual);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
