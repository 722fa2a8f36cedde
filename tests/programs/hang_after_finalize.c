/* EXPECT: hang  NP: 2  TIMEOUT: 1  RANKS: 1 */
/*
 * Checks: both ranks return from MPI_Finalize; then rank 1 waits forever
 * for a thread that waits for a condition nobody signals (the kind of bug
 * an exit path or a library's shutdown has).
 *
 * Why it is an error: the job never ends, and mpirun waits for rank 1
 * forever. After MPI_Finalize a rank can release nobody, and a process
 * that stays without using the processor or doing any I/O for
 * --hang-timeout is stuck: the launcher reports it with its threads'
 * stacks (the main thread in pthread_join) and ends the job.
 */
#include <mpi.h>
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *waiter(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&m);
    for (;;)
        pthread_cond_wait(&never, &m);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    if (rank == 1) {
        pthread_t t;
        pthread_create(&t, NULL, waiter, NULL);
        pthread_join(t, NULL);
    }
    return 0;
}
