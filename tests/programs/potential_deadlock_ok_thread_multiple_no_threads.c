/* EXPECT: OK  NP: 2  TIMEOUT: 5 */
/*
 * Checks: safe exchanges stay silent and do not stall in a program that
 * asked for MPI_THREAD_MULTIPLE and runs no thread besides the main one
 * (strict mode's wait for the receive is on there, as single-threaded):
 *  1. a stream of 200 standard sends from rank 0, received one by one in
 *     order by rank 1;
 *  2. an ordered exchange: rank 0 sends then receives, rank 1 receives
 *     then sends;
 *  3. after a thread of the program started, ran and was joined (strict
 *     mode is off while it lives, on again after), the same exchanges.
 * Each rank checks what it received.
 *
 * Why it must finish silently: none of these can deadlock with synchronous
 * sends either (MPI-4.0 sec. 3.5).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int rank;

static void *idle(void *unused)
{
    (void)unused;
    return NULL;
}

static int exchanges(void)
{
    int bad = 0, v;
    for (int i = 0; i < 200; i++) {
        if (rank == 0) {
            MPI_Send(&i, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            bad |= v != i;
        }
    }
    int out = 10 + rank;
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad |= v != 11;
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        bad |= v != 10;
    }
    return bad;
}

int main(int argc, char **argv)
{
    int provided, bad;
    pthread_t t;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    bad = exchanges();
    pthread_create(&t, NULL, idle, NULL);
    pthread_join(t, NULL);
    bad |= exchanges();
    if (bad)
        printf("TEST FAILED: rank %d received wrong values\n", rank);
    MPI_Finalize();
    return 0;
}
