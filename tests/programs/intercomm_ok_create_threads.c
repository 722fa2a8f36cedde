/* EXPECT: OK  NP: 2  TIMEOUT: 1  SKIPPED: collective-handshake */
/*
 * Checks: under MPI_THREAD_MULTIPLE, two threads of each of the two
 * processes create an intercommunicator between the processes at the same
 * time: local_comm a duplicate of MPI_COMM_SELF, the leaders are the two
 * processes, peer_comm the thread's own duplicate of MPI_COMM_WORLD, tag
 * 99 in all four calls. On rank 1 the second thread starts 0.3 s later
 * (the pattern of MPICH's threads/comm/idup_comm_gen, made to happen every
 * time).
 *
 * Each thread has its own peer_comm, as in MPICH's test: calls that share
 * the peer communicator and the tag at once are erroneous (MPI-4.0 sec.
 * 7.6.2: the leaders must use a different tag for each
 * MPI_Intercomm_create), and with MPI_COMM_WORLD for both threads MPICH's
 * own leader exchange crossed between the threads (MPI_ERR_TRUNCATE inside
 * MPI_Intercomm_create in 6 of 20 plain runs, without the checker, on a
 * loaded 2-core machine; most likely the failure of the CI run of
 * 2026-11-26, whose log did not name the test).
 *
 * Why it must finish silently: every intercommunicator MPI builds here is
 * a correct one between the same two processes, whichever thread's call
 * MPI pairs with which. The checker's exchange between the leaders took
 * the other thread's message (one thread before the real call, the other
 * after it) and the job hung; under MPI_THREAD_MULTIPLE the exchange and
 * the outcome agreement are skipped, counted as not checked.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int rank, errs;
static MPI_Comm peers[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *create(void *arg)
{
    int t = *(int *)arg, rsize = 0;
    MPI_Comm local, inter;
    if (rank == 1 && t == 1)
        usleep(300000);
    MPI_Comm_dup(MPI_COMM_SELF, &local);
    MPI_Intercomm_create(local, 0, peers[t], 1 - rank, 99, &inter);
    MPI_Comm_remote_size(inter, &rsize);
    pthread_mutex_lock(&lock);
    errs += rsize != 1;
    pthread_mutex_unlock(&lock);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, ids[2] = {0, 1};
    pthread_t th[2];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "intercomm_ok_create_threads: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int t = 0; t < 2; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &peers[t]);
    for (int t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, create, &ids[t]);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < 2; t++)
        MPI_Comm_free(&peers[t]);
    if (errs)
        printf("intercomm_ok_create_threads: %d wrong remote sizes\n", errs);
    MPI_Finalize();
    return errs != 0;
}
