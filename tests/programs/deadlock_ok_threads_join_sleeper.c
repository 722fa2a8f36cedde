/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: under MPI_THREAD_MULTIPLE each rank's main thread starts two
 * workers and waits for them in pthread_join. Worker "receiver" receives
 * from the other rank at once; worker "sleeper" sleeps for three
 * timeouts outside MPI, then sends what the other rank's receiver waits
 * for. For those three seconds every thread of both ranks that has called
 * MPI waits in MPI_Recv, and the main threads wait in pthread_join.
 *
 * Why it must finish silently: the sleeping workers are outside MPI and
 * can still make the call that releases the receivers (here they do): a
 * joining thread counts as blocked, a sleeping one never does, so no
 * deadlock can be proven.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int peer;

static void *receiver(void *unused)
{
    (void)unused;
    int x = 0;
    MPI_Recv(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return NULL;
}

static void *sleeper(void *unused)
{
    (void)unused;
    int x = 1;
    sleep(3);
    MPI_Send(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "deadlock_ok_threads_join_sleeper: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    pthread_t a, b;
    pthread_create(&a, NULL, receiver, NULL);
    pthread_create(&b, NULL, sleeper, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    MPI_Finalize();
    return 0;
}
