/* EXPECT: OK  NP: 2  TIMEOUT: 10  FLAVOR: mpich */
/*
 * Checks: four threads per rank create communicators at the same time, each
 * with MPI_Comm_create_group over its own parent (the thread's index as the
 * tag), use and free them, and duplicate MPI_COMM_SELF under a lock of the
 * program's own (the pattern of MPICH's threads/comm/comm_create_group_threads);
 * no finding, crash or hang expected.
 *
 * Why it must finish silently: the creations are collective over their
 * own parents only, so the threads may interleave them in any order
 * (MPI-4.0 sec. 11.6.2). The checker makes a shadow for every new
 * communicator. The shadow of the MPI_COMM_SELF duplicate, made with
 * MPI_Comm_idup while the other threads allocated context ids in their own
 * creations, made MPICH (4.0.2) grow without bound in its nonblocking
 * context-id allocation (pmodels/mpich#2069: idup of MPI_COMM_SELF fails in
 * multithreaded programs; #2020): the suite's test was killed by the kernel
 * at 8 GB. Under MPI_THREAD_MULTIPLE with MPICH the shadow of a
 * communicator of one process is a blocking split, made outside every lock
 * (it waits for no other process).
 *
 * MPICH only: the fault is MPICH's; Open MPI keeps the nonblocking copies.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define ITERS 20

static MPI_Comm comms[NT];
static pthread_mutex_t self_lock = PTHREAD_MUTEX_INITIALIZER;
static int fails[NT];

static void *create_loop(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < ITERS; i++) {
        MPI_Group group;
        MPI_Comm comm, self_dup;
        MPI_Comm_group(comms[t], &group);
        MPI_Comm_create_group(comms[t], group, t, &comm);
        int sum = 0, one = 1;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
        if (sum != 2)
            fails[t]++;
        MPI_Comm_free(&comm);
        MPI_Group_free(&group);
        /* A collective over MPI_COMM_SELF from several threads: the
         * program serializes it, as MPI requires for one communicator. */
        pthread_mutex_lock(&self_lock);
        MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
        pthread_mutex_unlock(&self_lock);
        MPI_Barrier(self_dup);
        MPI_Comm_free(&self_dup);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "TEST FAILED: no MPI_THREAD_MULTIPLE\n");
        MPI_Finalize();
        return 1;
    }
    for (int t = 0; t < NT; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    pthread_t th[NT];
    for (int t = 0; t < NT; t++)
        pthread_create(&th[t], NULL, create_loop, (void *)(long)t);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    int nfail = 0;
    for (int t = 0; t < NT; t++) {
        nfail += fails[t];
        MPI_Comm_free(&comms[t]);
    }
    if (nfail)
        fprintf(stderr, "TEST FAILED: %d sums were wrong\n", nfail);
    MPI_Finalize();
    return 0;
}
