/* EXPECT: deadlock  NP: 2  TIMEOUT: 1  RANKS: 0,1 */
/*
 * Checks: under MPI_THREAD_MULTIPLE each rank's main thread starts two
 * workers and waits for them in pthread_join. On both ranks worker "ping"
 * receives tag 1 from the other rank before it sends tag 2, and worker
 * "pong" receives tag 2 before it sends tag 1.
 *
 * Why it is an error: all four receives wait for sends that come only
 * after a receive of the other rank: the workers deadlock across the
 * ranks. The main threads wait in pthread_join for workers that never
 * return, so no thread of either rank can make the call that releases
 * another. The detector counts a joining thread as blocked (it can call
 * MPI only once the thread it joins ended) and proves the deadlock.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int peer;

static void *ping(void *unused)
{
    (void)unused;
    int x = 0;
    MPI_Recv(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
    return NULL;
}

static void *pong(void *unused)
{
    (void)unused;
    int x = 0;
    MPI_Recv(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "deadlock_threads_join: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    pthread_t a, b;
    pthread_create(&a, NULL, ping, NULL);
    pthread_setname_np(a, "ping");
    pthread_create(&b, NULL, pong, NULL);
    pthread_setname_np(b, "pong");
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    MPI_Finalize();
    return 0;
}
