/*
 * buffers.c - what the buffer-modified check (--check-buffers) costs per
 * message and per byte.
 *
 *   buffers ITERS BYTES [vector]
 *
 * ITERS rounds of MPI_Irecv + MPI_Isend to itself + MPI_Waitall of BYTES
 * bytes: contiguous MPI_BYTEs, or with "vector" a vector of doubles with
 * one-double holes (BYTES of data spread over twice as much memory, which
 * the checker packs to hash). Run it under callgrind with
 * MPICHECK_CHECK_BUFFERS=yes and =no and two ITERS: the difference of the
 * differences is the check's cost per message (docs/performance.md).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The process's peak resident set in KiB (Linux /proc), -1 elsewhere. */
static long peak_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

int main(int argc, char **argv)
{
    int rank, iters = argc > 1 ? atoi(argv[1]) : 1000;
    long bytes = argc > 2 ? atol(argv[2]) : 8;
    int vector = argc > 3 && strcmp(argv[3], "vector") == 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype t = MPI_BYTE;
    int count = (int)bytes;
    if (vector) {
        MPI_Type_vector((int)(bytes / 8), 1, 2, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        count = 1;
    }
    char *out = calloc(2 * (size_t)bytes + 16, 1), *in = calloc(2 * (size_t)bytes + 16, 1);
    MPI_Request reqs[2];
    MPI_Status st[2];
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        MPI_Irecv(in, count, t, rank, 7, MPI_COMM_WORLD, &reqs[0]);
        MPI_Isend(out, count, t, rank, 7, MPI_COMM_WORLD, &reqs[1]);
        MPI_Waitall(2, reqs, st);
    }
    double dt = MPI_Wtime() - t0;
    if (rank == 0)
        printf("buffers %d %ld %s %.1f ns peak %ld KiB\n", iters, bytes,
               vector ? "vector" : "contiguous", dt * 1e9 / iters, peak_kib());
    if (vector)
        MPI_Type_free(&t);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
