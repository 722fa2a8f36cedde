/*
 * The ThreadSanitizer test's check of itself (tests/tsan.sh): two threads
 * of an MPI_THREAD_MULTIPLE program write one counter without a lock while
 * both call MPI. Built with -fsanitize=thread and run exactly like the
 * checked programs (same preload, same suppressions): ThreadSanitizer must
 * report the race, or the test could not see one in the checker either.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static int counter;   /* written by both threads without a lock: the race */

static void *bump(void *arg)
{
    int rank;
    for (int i = 0; i < 1000; i++) {
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        counter++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    pthread_t t;
    pthread_create(&t, NULL, bump, NULL);
    bump(NULL);
    pthread_join(t, NULL);
    printf("counter %d\n", counter);
    MPI_Finalize();
    return 0;
}
