/* EXPECT: OK  NP: 2  TIMEOUT: 10  FLAVOR: mpich */
/*
 * Checks: four threads per rank, each duplicating and freeing copies of its
 * own communicator in a loop under MPI_THREAD_MULTIPLE (the pattern of
 * MPICH's threads/comm/dup_leak_test); no finding, crash or hang expected.
 *
 * Why it must finish silently and quickly: MPI_Comm_dup is collective over
 * the parent only, and each thread's parent is its own communicator, so the
 * threads' duplications may interleave in any order (MPI-4.0 sec. 11.6.2).
 * The checker gives every new communicator a private copy (its shadow).
 * For MPI_Comm_dup that copy was a blocking MPI_Comm_split of the new
 * communicator: one more context-id agreement per duplication, and MPICH
 * serializes those across threads. Plainly the loop takes 0.2 s with MPICH;
 * under the checker it took 22 s for 300 duplications per thread, and the
 * 2,000 here ran past the harness's 120 s limit. The shadow of a
 * duplicated communicator is now a nonblocking copy of the parent's shadow,
 * waited for at first use (1 s here). A thread that waits for such a copy
 * lets go of the checker's lock while it yields: the copy may wait behind
 * another thread's handshake, which needs the lock to end.
 *
 * MPICH only: Open MPI's own MPI_Comm_dup from several threads takes about
 * 20 s plainly for this loop on 2 cores (its context-id agreement retries
 * under contention), too long for the suite.
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
