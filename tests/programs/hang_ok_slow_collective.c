/* EXPECT: OK  NP: 2  TIMEOUT: 0.25 */
/*
 * Checks: both ranks call MPI_Allreduce on 32 MiB of doubles, and rank 1's
 * real call takes 3 s (--timeout is 0.25 s, --hang-timeout 1.5 s).
 *
 * Why it is correct: the handshake found both ranks in the same call with
 * matching arguments, so MPI completes it without another call of either
 * rank, however long it moves data. A collective of gigabytes does this
 * for real (an MPI_Allreduce of 1 GiB at 2 ranks took 4 to 7 s here, with
 * either MPI), inside one call with no read or write system call, and the
 * hang watch called it a hang. A thread inside a blocking collective whose
 * handshake was clean now counts its processor time as progress, for 1 s
 * plus 1 s a 16 MiB the call moves (about 9 s here). No finding expected.
 *
 * How: the program defines PMPI_Allreduce, which the checker's
 * MPI_Allreduce calls after its handshake, and has rank 1 compute in it
 * for 3 s (MPI reducing) before MPI's own: a long collective on any MPI,
 * at a known time, with little memory.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* hang_collective_stalled.c includes this file with its own. */
#ifndef SLOW_S
#define SLOW_S 3.0                  /* rank 1's real call lasts that long */
#define COUNT (4 * 1024 * 1024)     /* doubles: 32 MiB */
#endif
typedef int (*allreduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
static double slow_s;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int PMPI_Allreduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm)
{
    volatile unsigned long spin = 0;
    for (double end = now() + slow_s; now() < end;)
        for (int i = 0; i < 100000; i++)
            spin++;
    allreduce_fn real = (allreduce_fn)dlsym(RTLD_NEXT, "PMPI_Allreduce");
    return real ? real(sb, rb, count, t, op, comm) : MPI_ERR_INTERN;
}

int main(int argc, char **argv)
{
    int rank;
    double *a = malloc(COUNT * sizeof *a), *b = malloc(COUNT * sizeof *b);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < COUNT; i++)
        a[i] = i;
    slow_s = rank == 1 ? SLOW_S : 0;
    MPI_Allreduce(a, b, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    slow_s = 0;
    if (b[1] != 2.0 || b[COUNT - 1] != 2.0 * (COUNT - 1))
        printf("TEST FAILED: rank %d got %g ... %g\n", rank, b[1], b[COUNT - 1]);
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
