/* EXPECT: OK  NP: 2 */
/*
 * Checks: a poll loop that tests new requests each round, while other
 * requests are created and completed between the rounds, gets MPI's
 * answers. The checker keeps the records of the handles a poll loop tests
 * from one poll to the next (runtime/poll.c) and must drop them as soon as
 * any request comes or goes: MPI and the checker hand the same handle values
 * and records out again at once, so a kept record could be another
 * request's, still pending, and the poll would answer "not complete" for a
 * receive whose message came (a hang).
 *
 * 40 rounds; in each, rank 0 starts a large MPI_Isend to rank 1 and an
 * MPI_Irecv from MPI_ANY_SOURCE (odd rounds the receive first, even rounds
 * the send first, so the pools hand their entries out in both orders),
 * polls the receive with MPI_Test (odd rounds) or MPI_Testany (even rounds)
 * until rank 1's small message completes it, checks the value, tells rank 1
 * so, and waits for the send. Rank 1 receives the large message only after
 * that word, so the send stays pending through the whole poll: a poll that
 * looked at the send's record instead of the receive's never ends.
 *
 * Why it must finish silently: every request is completed by a test or a
 * wait that returned it complete (MPI-4.0 sec. 3.7.3); the messages match.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 40
#define BIG (256 * 1024)    /* ints: above the eager limits, the send stays pending */

int main(int argc, char **argv)
{
    int rank, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *big = calloc(BIG, sizeof *big);
    if (!big)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int round = 0; round < ROUNDS; round++) {
        if (rank == 0) {
            MPI_Request s, r;
            int got = -1, flag = 0, index;
            if (round % 2) {
                MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r);
                MPI_Isend(big, BIG, MPI_INT, 1, 2, MPI_COMM_WORLD, &s);
            } else {
                MPI_Isend(big, BIG, MPI_INT, 1, 2, MPI_COMM_WORLD, &s);
                MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r);
            }
            while (!flag) {
                if (round % 2)
                    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
                else
                    MPI_Testany(1, &r, &index, &flag, MPI_STATUS_IGNORE);
            }
            if (got != round) {
                printf("round %d: received %d\n", round, got);
                errors++;
            }
            MPI_Send(&got, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
            MPI_Wait(&s, MPI_STATUS_IGNORE);
        } else {
            int word;
            MPI_Send(&round, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
            MPI_Recv(&word, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(big, BIG, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    free(big);
    if (rank == 0 && errors == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return errors != 0;
}
