/*
 * coll.c - what the checker adds per collective, and what it costs rank 0
 * in memory.
 *
 *   coll time        per call of MPI_Barrier, MPI_Allreduce of 8 bytes,
 *                    MPI_Bcast of 1 MiB and MPI_Alltoall of 8 bytes to each
 *                    rank, in microseconds: a warmup, then 10 timed blocks,
 *                    the median block; rank 0 prints "coll barrier_us 3.1",
 *                    "coll allreduce8_us ...", "coll bcast1MiB_us ...",
 *                    "coll alltoall8_us ...".
 *   coll memory      1,000 collectives (Barrier, Allreduce of 8 bytes, Bcast
 *                    of 64 bytes, Allgather of 4 bytes each, in turn); then
 *                    rank 0 prints its peak resident size (VmHWM of
 *                    /proc/self/status): "coll peak_kib 41234".
 * Usage: coll time|memory [SCALE]  (SCALE multiplies the time iterations)
 * Run plain and under mpicheck: scripts/bench coll.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 10

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Microseconds per call of op(i), median of BLOCKS blocks of n calls. */
static double timed(void (*op)(void), int warmup, int n)
{
    double t[BLOCKS];
    for (int i = 0; i < warmup; i++)
        op();
    for (int b = 0; b < BLOCKS; b++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++)
            op();
        double dt = MPI_Wtime() - t0, mx = 0;
        MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t[b] = mx / n * 1e6;
    }
    qsort(t, BLOCKS, sizeof *t, cmp_double);
    return (t[BLOCKS / 2 - 1] + t[BLOCKS / 2]) / 2;
}

static char *big;
static void op_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }
static void op_allreduce(void)
{
    double in = 1, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}
static void op_bcast(void) { MPI_Bcast(big, 1 << 20, MPI_BYTE, 0, MPI_COMM_WORLD); }
static double *a2a_in, *a2a_out;
static void op_alltoall(void)
{
    MPI_Alltoall(a2a_in, 1, MPI_DOUBLE, a2a_out, 1, MPI_DOUBLE, MPI_COMM_WORLD);
}

static long peak_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "time";
    double scale = argc > 2 ? atof(argv[2]) : 1.0;
    if (strcmp(what, "time") == 0) {
        big = calloc(1, 1 << 20);
        int n = (int)(200 * scale) > 0 ? (int)(200 * scale) : 1;
        double b = timed(op_barrier, 50, n);
        double a = timed(op_allreduce, 50, n);
        double c = timed(op_bcast, 5, n / 10 > 0 ? n / 10 : 1);
        a2a_in = calloc((size_t)size, sizeof *a2a_in);
        a2a_out = calloc((size_t)size, sizeof *a2a_out);
        double d = timed(op_alltoall, 50, n);
        if (rank == 0)
            printf("coll barrier_us %.3f\ncoll allreduce8_us %.3f\ncoll bcast1MiB_us %.3f\n"
                   "coll alltoall8_us %.3f\n", b, a, c, d);
        free(big);
        free(a2a_in);
        free(a2a_out);
    } else {
        char buf[64] = {0};
        int mine = rank, *all = malloc((size_t)size * sizeof *all);
        double in = 1, out;
        for (int i = 0; i < 1000; i++) {
            switch (i % 4) {
            case 0: MPI_Barrier(MPI_COMM_WORLD); break;
            case 1: MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
            case 2: MPI_Bcast(buf, 64, MPI_BYTE, i % size, MPI_COMM_WORLD); break;
            case 3: MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD); break;
            }
        }
        if (rank == 0)
            printf("coll peak_kib %ld\n", peak_kib());
        free(all);
    }
    MPI_Finalize();
    return 0;
}
