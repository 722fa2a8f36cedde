/* EXPECT: OK  NP: 3  TIMEOUT: 1 */
/*
 * Checks: the correct counterpart of deadlock_waitall_cycle.c. Rank 0 waits
 * in MPI_Waitall for receives from ranks 1 and 2, and rank 1 sends only
 * after computing for longer than the timeout (2.5 s against --timeout=1),
 * while rank 2's message came long before.
 *
 * Why it is correct: every request of the MPI_Waitall completes in the
 * end; a checker must not mistake a peer that computes past the timeout
 * for a deadlock (rank 1 never answers the detector while it computes,
 * so it is never blamed).
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
        struct timespec nap = {0, 1000000};
        nanosleep(&nap, NULL);      /* oversubscribed: leave the peers some CPU */
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
}

int main(int argc, char **argv)
{
    int rank, a = 0, b = 0, x = 7;
    MPI_Request req[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, st);
    } else if (rank == 1) {
        compute(2.5);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
