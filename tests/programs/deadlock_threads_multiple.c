/* EXPECT: deadlock  NP: 2  TIMEOUT: 1  RANKS: 0,1 */
/*
 * Checks: under MPI_THREAD_MULTIPLE each rank runs two threads, the main
 * one and one named "receiver"; on both ranks both threads receive from
 * the other rank (tags 1 and 2) before either sends anything.
 *
 * Why it is an error: the four receives wait for sends that come only
 * after them: the threads deadlock across the ranks and the program
 * hangs. Every thread of the program is inside MPI_Recv, so none can make
 * the call that would release another: the deadlock detector proves it
 * with one node per thread, and the report names each thread (its id and
 * "receiver") beside its rank.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int peer;

static void *receiver(void *unused)
{
    (void)unused;
    int x;
    MPI_Recv(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, provided, x = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "deadlock_threads_multiple: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    pthread_t t;
    pthread_create(&t, NULL, receiver, NULL);
    pthread_setname_np(t, "receiver");
    MPI_Recv(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
    pthread_join(t, NULL);
    MPI_Finalize();
    return 0;
}
