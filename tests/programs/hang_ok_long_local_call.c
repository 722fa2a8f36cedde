/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: rank 0 is inside MPI_Pack, computing, for longer than
 * --hang-timeout (6 x --timeout: 6 s) while rank 1 waits in MPI_Recv for
 * the message rank 0 sends afterwards.
 *
 * Why it is correct: MPI_Pack is a local procedure (MPI-4.0 sec. 2.4.2):
 * its completion depends on no other process, so a rank inside it that
 * uses the processor computes, as it would outside MPI. MPI itself spends
 * minutes in such calls: Open MPI's MPI_Get of 16,000,000 ints with a
 * derived datatype copies them one by one (MPICH's test rma/getfence1). No
 * finding expected.
 *
 * How: the program defines PMPI_Pack, which the checker's MPI_Pack calls,
 * so that this one MPI_Pack computes for 9 s before it calls MPI's own
 * (dlsym RTLD_NEXT): a slow local call on any MPI, at a known time.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <time.h>

typedef int (*pack_fn)(const void *, int, MPI_Datatype, void *, int, int *, MPI_Comm);
static volatile int slow;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int PMPI_Pack(const void *in, int n, MPI_Datatype t, void *out, int size, int *pos, MPI_Comm c)
{
    volatile unsigned long spin = 0;
    for (double end = now() + (slow ? 9.0 : 0.0); now() < end;)
        for (int i = 0; i < 100000; i++)
            spin++;
    pack_fn real = (pack_fn)dlsym(RTLD_NEXT, "PMPI_Pack");
    return real ? real(in, n, t, out, size, pos, c) : MPI_ERR_INTERN;
}

int main(int argc, char **argv)
{
    int rank, x[4] = {1, 2, 3, 4}, pos = 0;
    char packed[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        slow = 1;
        if (MPI_Pack(x, 4, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD) != MPI_SUCCESS)
            printf("TEST FAILED: MPI_Pack\n");
        slow = 0;
        MPI_Send(packed, pos, MPI_PACKED, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(packed, sizeof packed, MPI_PACKED, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Unpack(packed, sizeof packed, &pos, x, 4, MPI_INT, MPI_COMM_WORLD);
        if (x[0] != 1 || x[3] != 4)
            printf("TEST FAILED: rank 1 unpacked %d..%d\n", x[0], x[3]);
    }
    MPI_Finalize();
    return 0;
}
