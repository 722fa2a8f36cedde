/* EXPECT: OK  NP: 2  TIMEOUT: 10  FLAVOR: mpich */
/*
 * Checks: four threads per rank, each duplicating and freeing copies of its
 * own communicator in a loop under MPI_THREAD_MULTIPLE (the pattern of
 * MPICH's threads/comm/dup_leak_test); no finding, crash or hang expected.
 *
 * Why it must finish silently: MPI_Comm_dup is collective over the parent
 * only, and each thread's parent is its own communicator, so the threads'
 * duplications may interleave in any order (MPI-4.0 sec. 11.6.2). The
 * checker gives every new communicator a private copy (its shadow), one
 * more context-id agreement per duplication. What went wrong with MPICH:
 *  - a blocking split of the new communicator for the shadow: MPICH's
 *    allocations contend across threads (pmodels/mpich#4602), and 300
 *    duplications per thread took 22 to 44 s against 0.3 s plainly; the
 *    2,000 here ran past the harness's 120 s limit. The shadow of a
 *    duplicated communicator of several processes is a nonblocking copy of
 *    the parent's shadow (1 s here);
 *  - a thread waiting for such a copy kept the checker's lock while it
 *    yielded, so another thread's handshake, which the copy waited behind,
 *    could not end: a hang;
 *  - once MPICH had freed a thread's communicator, another thread got the
 *    same handle for its new one before the first thread's free hook ran,
 *    which then drained and freed the new record: MPI aborted on the
 *    checker's MPI_Iprobe of a null shadow (about 1 run in 5).
 *
 * MPICH only: Open MPI's own MPI_Comm_dup from several threads is slow
 * plainly on 2 cores (about 20 s for this loop).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define ITERS 2000

static MPI_Comm comms[NT];
static int fails[NT];

static void *dup_loop(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < ITERS; i++) {
        MPI_Comm copy;
        if (MPI_Comm_dup(comms[t], &copy) != MPI_SUCCESS) {
            fails[t]++;
            continue;
        }
        MPI_Comm_free(&copy);
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
    for (int t = 1; t < NT; t++)
        pthread_create(&th[t], NULL, dup_loop, (void *)(long)t);
    dup_loop((void *)0L);
    for (int t = 1; t < NT; t++)
        pthread_join(th[t], NULL);

    int nfail = 0;
    for (int t = 0; t < NT; t++) {
        nfail += fails[t];
        /* The copies made from each thread's communicator are still usable. */
        int sum = 0;
        MPI_Allreduce(&t, &sum, 1, MPI_INT, MPI_SUM, comms[t]);
        if (sum != 2 * t)
            nfail++;
        MPI_Comm_free(&comms[t]);
    }
    if (nfail)
        fprintf(stderr, "TEST FAILED: %d duplications or sums failed\n", nfail);
    MPI_Finalize();
    return 0;
}
