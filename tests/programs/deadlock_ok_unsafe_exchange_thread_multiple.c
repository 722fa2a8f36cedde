/* EXPECT: OK  NP: 2  TIMEOUT: 60 */
/*
 * Checks: the unsafe exchange (both ranks MPI_Send to each other before
 * either receives) in a program that asked for MPI_THREAD_MULTIPLE, with a
 * second thread per rank polling its own messages with MPI_Iprobe.
 *
 * Why it must finish silently: the program completes because MPI buffers
 * the small messages (MPI-3.1 sec. 3.4 allows it, and every library does).
 * Under MPI_THREAD_MULTIPLE the deadlock detector is off (several threads
 * of a rank may wait at once), so strict mode's wait for the receive could
 * never end in a potential-deadlock report. It could only stall the job:
 * before the fix both ranks waited in their first MPI_Send until the wait
 * gave up after two timeouts (here 2 x 60 s, past the test's 120 s limit),
 * and MPICH's threads/pt2pt/mt_iprobe_sendrecv, whose every send waited for
 * its receive, ran 17 to 29 times longer. Strict mode is therefore off
 * under MPI_THREAD_MULTIPLE: the program's sends complete as MPI completes
 * them.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define ITERS 200

static int rank, peer;

/* Polls for messages with tag 1 and receives them. */
static void *poller(void *arg)
{
    int *nfail = arg;
    for (int i = 0; i < ITERS; i++) {
        int flag = 0, v = -1;
        MPI_Status st;
        while (!flag)
            MPI_Iprobe(peer, 1, MPI_COMM_WORLD, &flag, &st);
        MPI_Recv(&v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (v != i)
            (*nfail)++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, nfail = 0, pfail = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("MPI_THREAD_MULTIPLE not provided: nothing to test\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    pthread_t t;
    pthread_create(&t, NULL, poller, &pfail);
    for (int i = 0; i < ITERS; i++) {
        int out = i, in = -1;
        /* unsafe: both ranks send first; completes because MPI buffers */
        MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
        if (in != i)
            nfail++;
    }
    pthread_join(t, NULL);
    if (nfail + pfail)
        printf("rank %d: %d wrong values\n", rank, nfail + pfail);
    MPI_Finalize();
    return nfail + pfail != 0;
}
