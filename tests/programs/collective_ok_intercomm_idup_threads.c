/* EXPECT: OK  NP: 4  TIMEOUT: 1  FLAVOR: mpich  SKIPPED: collective-handshake */
/*
 * Checks: under MPI_THREAD_MULTIPLE, two threads per process each
 * duplicate their own intercommunicator (rank 0 against ranks 1-3) twice
 * with MPI_Comm_idup, start an MPI_Iallreduce on it, wait for the first
 * copy, then duplicate that copy twice more and start an MPI_Iallreduce on
 * it, and wait for everything at once (the pattern of MPICH's
 * threads/comm/idup_nb, smaller).
 *
 * Why it must finish silently: nonblocking duplications of different
 * communicators may proceed concurrently in different threads, each
 * communicator's collectives called in one order by all its processes
 * (MPI-4.0 sec. 7.4.2, 11.6.3). Under MPICH the checker's own copies of
 * the idup'ed intercommunicators (for their handshakes), interleaved
 * across threads, left every thread hanging inside MPI_Comm_idup; such
 * communicators now go without a handshake (counted as not checked).
 * Open MPI 4.1 hangs on MPICH's idup_nb without the checker: MPICH only.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 2
static MPI_Comm parents[NTHREADS];
static int errs[NTHREADS];

static void *worker(void *arg)
{
    int t = *(int *)arg, rank, rsize, ans[2], cnt = 0;
    MPI_Comm comms[4];
    MPI_Request reqs[8];
    MPI_Comm_rank(parents[t], &rank);
    MPI_Comm_remote_size(parents[t], &rsize);
    for (int j = 0; j < 2; j++)
        MPI_Comm_idup(parents[t], &comms[j], &reqs[cnt++]);
    MPI_Iallreduce(&rank, &ans[0], 1, MPI_INT, MPI_SUM, parents[t], &reqs[cnt++]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    for (int j = 2; j < 4; j++)
        MPI_Comm_idup(comms[0], &comms[j], &reqs[cnt++]);
    MPI_Iallreduce(&rank, &ans[1], 1, MPI_INT, MPI_SUM, comms[0], &reqs[cnt++]);
    MPI_Waitall(cnt, reqs, MPI_STATUSES_IGNORE);
    errs[t] += ans[0] != (rsize - 1) * rsize / 2 || ans[1] != ans[0];
    for (int j = 0; j < 4; j++)
        MPI_Comm_free(&comms[j]);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, ids[NTHREADS];
    MPI_Comm local;
    pthread_t th[NTHREADS];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "collective_ok_intercomm_idup_threads: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int left = rank == 0;
    MPI_Comm_split(MPI_COMM_WORLD, left, rank, &local);
    for (int t = 0; t < NTHREADS; t++)
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, left ? 1 : 0, t, &parents[t]);
    for (int t = 0; t < NTHREADS; t++) {
        ids[t] = t;
        pthread_create(&th[t], NULL, worker, &ids[t]);
    }
    int bad = 0;
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        bad += errs[t];
        MPI_Comm_free(&parents[t]);
    }
    MPI_Comm_free(&local);
    if (bad)
        printf("collective_ok_intercomm_idup_threads: %d wrong results\n", bad);
    MPI_Finalize();
    return bad != 0;
}
