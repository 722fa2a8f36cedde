/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: no deadlock is reported while another thread of the program
 * could still release a wait. Under MPI_THREAD_MULTIPLE each rank's main
 * thread receives from the other rank first; the message comes from the
 * other rank's second thread, which sleeps three timeouts (outside MPI)
 * before it sends. Until then every main thread waits, yet the wait ends:
 * the detector must stay quiet while a thread besides the main one is
 * alive (core/threads.c), and stays so even after the sleeping threads
 * have sent and ended.
 *
 * Why it must finish silently: a receive may wait for a send another
 * thread makes later (MPI-4.0 sec. 12.4: threads of a process make MPI
 * calls independently).
 */
#include <mpi.h>
#include <pthread.h>
#include <unistd.h>

static int rank;

static void *late_sender(void *unused)
{
    (void)unused;
    int v = rank;
    sleep(3);
    MPI_Send(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, v = -1;
    pthread_t t;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < 2) {
        pthread_create(&t, NULL, late_sender, NULL);
        MPI_Recv(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        pthread_join(t, NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return v == 1 - rank || rank >= 2 ? 0 : 1;
}
