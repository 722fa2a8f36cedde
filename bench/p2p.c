/*
 * p2p.c - what the checker adds per point-to-point message, between 2 ranks.
 *
 *   pingpong_8B   MPI_Send / MPI_Recv of 8 bytes, back and forth
 *   pingpong_1KiB, _64KiB, _1MiB, _4MiB  the same with larger messages
 *   msgrate       rank 0 posts a window of 64 MPI_Isend of 8 bytes, rank 1
 *                 64 MPI_Irecv, both MPI_Waitall, then rank 1 sends a 1-int
 *                 ack so that windows do not overlap
 * Each part runs a warmup, then a fixed number of timed iterations (the same
 * plain and checked, so that the runs compare) in 10 blocks, and takes the
 * median block. Rank 0 prints, one line per measure, "p2p NAME VALUE":
 *   p2p pingpong_8B_us 0.150       one-way latency, microseconds
 *   p2p pingpong_64KiB_us 13.100  (and 1KiB, 1MiB, 4MiB)
 *   p2p msgrate_8B_per_s 14900000  messages per second
 * Ranks other than 0 and 1 only take part in the barriers.
 * Usage: p2p [SCALE]   (multiplies every iteration count; default 1)
 * Run it plain and under mpicheck --mode=fast|strict: scripts/bench.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64
#define BIG (4 << 20)

/* The timed iterations run in BLOCKS blocks, each timed on its own; a run
 * reports the median block, so that a short interruption by other work on
 * the machine spoils one block, not the run. */
#define BLOCKS 10

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_block(double *t)
{
    qsort(t, BLOCKS, sizeof *t, cmp_double);
    return (t[BLOCKS / 2 - 1] + t[BLOCKS / 2]) / 2;
}

/* One-way latency in microseconds of a ping-pong of `bytes` bytes. */
static double pingpong(int rank, char *buf, int bytes, int warmup, int iters, int tag)
{
    double t[BLOCKS];
    int per = iters / BLOCKS > 0 ? iters / BLOCKS : 1;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int b = -1; b < BLOCKS; b++) {      /* block -1: the warmup */
        int n = b < 0 ? warmup : per;
        if (b == 0)
            MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, tag, MPI_COMM_WORLD);
            }
        }
        if (b >= 0)
            t[b] = MPI_Wtime() - t0;
    }
    return median_block(t) * 1e6 / (2.0 * per);
}

/* Messages per second: windows of WINDOW nonblocking 8-byte messages, each
 * window closed by an ack from the receiver. Every pending message has its
 * own buffer (pending receives must not share one). */
static double msgrate(int rank, int warmup, int windows, int tag)
{
    static double sbuf[WINDOW], rbuf[WINDOW];
    static MPI_Status st[WINDOW];
    MPI_Request reqs[WINDOW];
    int ack = 0, per = windows / BLOCKS > 0 ? windows / BLOCKS : 1;
    double t[BLOCKS];
    for (int k = 0; k < WINDOW; k++)
        sbuf[k] = k;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int b = -1; b < BLOCKS; b++) {      /* block -1: the warmup */
        int n = b < 0 ? warmup : per;
        if (b == 0)
            MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int w = 0; w < n; w++) {
            if (rank == 0) {
                for (int k = 0; k < WINDOW; k++)
                    MPI_Isend(&sbuf[k], 8, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &reqs[k]);
                MPI_Waitall(WINDOW, reqs, st);
                MPI_Recv(&ack, 1, MPI_INT, 1, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                for (int k = 0; k < WINDOW; k++)
                    MPI_Irecv(&rbuf[k], 8, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &reqs[k]);
                MPI_Waitall(WINDOW, reqs, st);
                MPI_Send(&ack, 1, MPI_INT, 0, tag + 1, MPI_COMM_WORLD);
            }
        }
        if (b >= 0)
            t[b] = MPI_Wtime() - t0;
    }
    if (rank == 1 && rbuf[WINDOW - 1] != WINDOW - 1) {
        fprintf(stderr, "p2p: msgrate: wrong data received\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return (double)per * WINDOW / median_block(t);
}

int main(int argc, char **argv)
{
    int rank, size;
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    if (scale <= 0)
        scale = 1.0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "p2p: needs 2 ranks (mpirun -np 2)\n");
        MPI_Finalize();
        return 2;
    }

    char *buf = malloc(BIG);
    if (!buf) {
        fprintf(stderr, "p2p: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, rank, BIG);

    /* Iterations per size: some 0.1 to 0.5 s of messages each, plainly. */
    static const struct { const char *name; int bytes, iters; } sizes[] = {
        {"8B", 8, 200000}, {"1KiB", 1024, 50000}, {"64KiB", 64 * 1024, 8000},
        {"1MiB", 1 << 20, 500}, {"4MiB", 4 << 20, 100},
    };
    double lat[sizeof sizes / sizeof sizes[0]];
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = (int)(sizes[k].iters * scale) > 0 ? (int)(sizes[k].iters * scale) : 1;
        int warm = n / 100 > 10 ? n / 100 : 10;
        lat[k] = pingpong(rank, buf, sizes[k].bytes, warm, n, 10 + (int)k);
    }
    int nwin = (int)(20000 * scale) > 0 ? (int)(20000 * scale) : 1;
    double rate = msgrate(rank, 200, nwin, 20);

    if (rank == 0) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            printf("p2p pingpong_%s_us %.3f\n", sizes[k].name, lat[k]);
        printf("p2p msgrate_8B_per_s %.0f\n", rate);
        fflush(stdout);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
