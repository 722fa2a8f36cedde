/* EXPECT: invalid-argument  NP: 2  RANKS: 1 */
/*
 * Checks: under MPI_THREAD_MULTIPLE, on rank 1 a second thread waits in
 * MPI_Wait for an MPI_Irecv's request while the main thread calls MPI_Test
 * on the same request; only then does rank 0 send the message.
 *
 * Why it is an error: "a program in which two threads block, waiting on the
 * same request, is erroneous"; completing a request is one thread's job
 * (MPI-4.0 sec. 11.6.2). The checker names both calls.
 */
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

static MPI_Request req;
static int in_wait;

static void *waiter(void *arg)
{
    __atomic_store_n(&in_wait, 1, __ATOMIC_RELEASE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    return arg;
}

int main(int argc, char **argv)
{
    int rank, provided, x = 0, flag = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("TEST FAILED: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        pthread_t t;
        MPI_Request copy;
        MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        copy = req;
        pthread_create(&t, NULL, waiter, NULL);
        while (!__atomic_load_n(&in_wait, __ATOMIC_ACQUIRE))
            ;
        struct timespec ts = {0, 100000000};    /* the waiter is in MPI_Wait by then */
        nanosleep(&ts, NULL);
        MPI_Test(&copy, &flag, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD);
        pthread_join(t, NULL);
    } else if (rank == 0) {
        MPI_Recv(NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
