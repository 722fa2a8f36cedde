/* EXPECT: hang  NP: 2  TIMEOUT: 1  RANKS: 0,1 */
/*
 * Checks: under MPI_THREAD_FUNNELED each rank starts a worker thread that
 * waits on a condition variable (an idle thread pool, as an OpenMP runtime
 * keeps between parallel regions). Then rank 0 calls MPI_Win_fence on a
 * window of both ranks and sends rank 1 a message; rank 1 never calls the
 * fence and waits for the message.
 *
 * Why it is an error: MPI_Win_fence is collective over the window's group
 * (MPI-4.0 sec. 12.5.1); a fence that one member never calls never
 * completes, and the program hangs. The idle workers may not call MPI
 * (MPI_THREAD_FUNNELED: only the main thread does), so each rank's MPI is
 * blocked by its main thread alone: the launcher's hang watch must judge
 * both ranks stuck despite the idle threads, report both calls after
 * --hang-timeout and end the job.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static int stop;

static void *idle_worker(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    while (!stop)
        pthread_cond_wait(&work, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, provided, *buf;
    MPI_Win win;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    if (provided < MPI_THREAD_FUNNELED) {
        fprintf(stderr, "hang_funneled_idle_thread: MPI_THREAD_FUNNELED not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pthread_t t;
    pthread_create(&t, NULL, idle_worker, NULL);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    if (rank == 0) {
        MPI_Win_fence(0, win);
        MPI_Send(buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Win_free(&win);
    pthread_mutex_lock(&lock);
    stop = 1;
    pthread_cond_signal(&work);
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    MPI_Finalize();
    return 0;
}
