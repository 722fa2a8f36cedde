/* EXPECT: OK  NP: 3 */
/*
 * Checks: OR-waits that are released. In each of 3 rounds rank 0 posts an
 * MPI_Irecv from rank 1 and one from rank 2, then completes both with:
 * round 0, MPI_Waitany twice; round 1, an MPI_Waitsome loop; round 2, an
 * MPI_Testany polling loop. Ranks 1 and 2 send each round after 0.5 s of
 * computation (a sleep), so rank 0 really waits.
 *
 * Why it is correct: MPI_Waitany/MPI_Waitsome return once at least one
 * active request completes, MPI_Testany reports completions as they happen,
 * and completed requests become MPI_REQUEST_NULL, ignored afterwards
 * (MPI-3.1 sec. 3.7.5). Every receive has its send: no deadlock, and the
 * wait being longer than nothing is not one either.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank, round, idx, n, i, flag, done, bad = 0, in[2], out, idxs[2];
    MPI_Request req[2];
    MPI_Status st, sts[2];
    struct timespec half = {0, 500000000L};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    for (round = 0; round < 3; round++) {
        if (rank == 0) {
            in[0] = in[1] = -1;
            MPI_Irecv(&in[0], 1, MPI_INT, 1, round, MPI_COMM_WORLD, &req[0]);
            MPI_Irecv(&in[1], 1, MPI_INT, 2, round, MPI_COMM_WORLD, &req[1]);
            for (done = 0; done < 2; ) {
                if (round == 0) {
                    MPI_Waitany(2, req, &idx, &st);
                    done++;
                } else if (round == 1) {
                    MPI_Waitsome(2, req, &n, idxs, sts);
                    done += n;
                } else {
                    MPI_Testany(2, req, &idx, &flag, &st);
                    if (flag && idx != MPI_UNDEFINED)
                        done++;
                }
            }
            for (i = 0; i < 2; i++)
                bad += in[i] != 10 * (i + 1) + round || req[i] != MPI_REQUEST_NULL;
        } else if (rank == 1 || rank == 2) {
            nanosleep(&half, NULL);     /* stands for computation */
            out = 10 * rank + round;
            MPI_Send(&out, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
    }
    if (bad)
        printf("rank %d: %d wrong values\n", rank, bad);

    MPI_Finalize();
    return 0;
}
