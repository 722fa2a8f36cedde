/*
 * cg.c - a mini-app: conjugate gradients on the 1-D Poisson matrix
 * (2 on the diagonal, -1 beside it), the vector split into equal blocks,
 * one per rank. Each iteration exchanges one boundary value with each
 * neighbour for the matrix-vector product (MPI_Sendrecv) and takes two dot
 * products with MPI_Allreduce: the communication of most Krylov solvers.
 *
 * Rank 0 prints "app cg SECONDS" (the iterations only) and the final
 * residual norm, which must be the same plain and checked.
 * Usage: cg [N [ITERS]]   (N unknowns per rank, default 20000; 5000 iterations)
 * Run it plain and under mpicheck: scripts/bench apps.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static int rank, size;

/* y = A x for the local block; x has a halo cell at each end. */
static void matvec(double *x, double *y, int n)
{
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    x[0] = x[n + 1] = 0;
    MPI_Sendrecv(&x[1], 1, MPI_DOUBLE, left, 0, &x[n + 1], 1, MPI_DOUBLE, right, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x[n], 1, MPI_DOUBLE, right, 1, &x[0], 1, MPI_DOUBLE, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 1; i <= n; i++)
        y[i] = 2 * x[i] - x[i - 1] - x[i + 1];
}

static double dot(const double *a, const double *b, int n)
{
    double local = 0, global = 0;
    for (int i = 1; i <= n; i++)
        local += a[i] * b[i];
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 20000, iters = argc > 2 ? atoi(argv[2]) : 5000;
    if (n < 1 || iters < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: cg [N >= 1 [ITERS >= 1]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double *x = calloc((size_t)n + 2, sizeof *x), *r = calloc((size_t)n + 2, sizeof *r),
           *p = calloc((size_t)n + 2, sizeof *p), *ap = calloc((size_t)n + 2, sizeof *ap);
    if (!x || !r || !p || !ap)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 1; i <= n; i++)
        r[i] = p[i] = 1.0;     /* b = 1, x0 = 0 */
    double rr = dot(r, r, n), t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        matvec(p, ap, n);
        double alpha = rr / dot(p, ap, n);
        for (int i = 1; i <= n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        double rr_new = dot(r, r, n);
        for (int i = 1; i <= n; i++)
            p[i] = r[i] + rr_new / rr * p[i];
        rr = rr_new;
    }
    double t = MPI_Wtime() - t0;
    if (rank == 0)
        printf("app cg %.4f\nresidual %.10e\n", t, sqrt(rr));
    free(x);
    free(r);
    free(p);
    free(ap);
    MPI_Finalize();
    return 0;
}
