/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: under MPI_THREAD_MULTIPLE, both ranks' main threads wait in
 * MPI_Recv; on rank 1 a second thread of the program sleeps for longer
 * than --hang-timeout (6 s) outside MPI, then sends the message that
 * releases rank 0, which answers rank 1.
 *
 * Why it is correct: while a thread of a waiting rank is outside MPI it
 * can still make the call that releases the others (here it does): the
 * job is not hung, and no deadlock can be proven. No finding expected.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *late_sender(void *unused)
{
    (void)unused;
    int x = 1;
    sleep(8);
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, provided, x = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "hang_ok_thread: MPI_THREAD_MULTIPLE not provided; nothing to check\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else {
        pthread_t t;
        pthread_create(&t, NULL, late_sender, NULL);
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        pthread_join(t, NULL);
    }
    MPI_Finalize();
    return 0;
}
