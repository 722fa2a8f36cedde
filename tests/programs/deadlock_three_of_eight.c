/* EXPECT: deadlock  NP: 8  TIMEOUT: 1  RANKS: 1,4,6 */
/*
 * Checks: a deadlock among 3 of 8 ranks while the other 5 compute for
 * longer than the timeout. Ranks 1, 4 and 6 each receive from the next
 * one (1 from 4, 4 from 6, 6 from 1) before sending: a receive cycle.
 * Ranks 0, 2, 3, 5 and 7 compute for 6 s (against --timeout=1) and then
 * reach MPI_Finalize.
 *
 * Why it is an error: MPI_Recv blocks until a matching message arrives
 * (MPI-3.1 sec. 3.4), so the three ranks can never be released. The
 * report must come once, name exactly ranks 1, 4 and 6, and not blame the
 * five computing ranks, which never answer the detector while they
 * compute (RANKS: the finding's ranks are exactly these).
 */
#include <mpi.h>
#include <time.h>

static void compute(double seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    volatile double acc = 0;
    do {
        for (int i = 0; i < 100000; i++)
            acc += i * 0.5;
        struct timespec nap = {0, 2000000};
        nanosleep(&nap, NULL);      /* 8 ranks on few cores: leave CPU to the others */
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
}

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    int from = -1, to = -1;
    if (rank == 1) { from = 4; to = 6; }
    if (rank == 4) { from = 6; to = 1; }
    if (rank == 6) { from = 1; to = 4; }
    if (from >= 0) {
        MPI_Recv(&y, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, to, 0, MPI_COMM_WORLD);
    } else {
        compute(6.0);
    }
    MPI_Finalize();
    return 0;
}
