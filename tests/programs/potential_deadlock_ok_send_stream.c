/* EXPECT: OK  NP: 2  MODE: strict */
/*
 * Checks: no false potential deadlock on a stream of small standard-mode
 * sends received one by one (MPICH's pt2pt/pingping). Rank 0 sends 2,000
 * messages of 17 ints; rank 1 does a little work before each receive; eight
 * rounds on MPI_COMM_WORLD, then eight on a communicator with the ranks
 * reversed, so each rank is sender and receiver.
 *
 * Why no finding: every send has its receive, posted in the same order;
 * with MPI_Ssend semantics the stream only goes in lock step.
 *
 * What went wrong: strict mode's early probe (a send waiting 5 ms for its
 * receive) slept 50 ms between its two rounds without calling MPI, and
 * the receiver waited in the same receive for data still in the prober's
 * own queues: both "in the same waits" twice, a false potential-deadlock
 * (2 of 4 runs before the fix, 9 of 28 pingping instances of MPICH's suite
 * with Open MPI). The pause now keeps MPI progressing, and a sender with
 * older sends still unacknowledged is not judged early.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    static double work[4096];
    int buf[17] = {0}, world_rank;
    MPI_Comm comms[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    comms[0] = MPI_COMM_WORLD;
    MPI_Comm_split(MPI_COMM_WORLD, 0, -world_rank, &comms[1]);     /* ranks reversed */
    for (int c = 0; c < 2; c++) {
        int rank, size;
        MPI_Comm_rank(comms[c], &rank);
        MPI_Comm_size(comms[c], &size);
        for (int round = 0; round < 8; round++) {
            for (int m = 0; m < 2000; m++) {
                if (rank == 0) {
                    buf[0] = m;
                    MPI_Send(buf, 17, MPI_INT, size - 1, 0, comms[c]);
                } else if (rank == size - 1) {
                    for (int i = 0; i < 4096; i++)
                        work[i] = work[i] * 0.5 + i;
                    MPI_Recv(buf, 17, MPI_INT, 0, 0, comms[c], MPI_STATUS_IGNORE);
                    if (buf[0] != m) {
                        fprintf(stderr, "TEST FAILED: message %d arrived as %d\n", m, buf[0]);
                        MPI_Abort(MPI_COMM_WORLD, 1);
                    }
                }
            }
        }
    }
    MPI_Comm_free(&comms[1]);
    MPI_Finalize();
    return work[5] < 0;     /* keeps the work */
}
