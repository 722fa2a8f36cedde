/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: strict mode's model of synchronous sends (docs/design.md, "Sends
 * let go without their acknowledgment") does not take a send that
 * MPI_Waitany returned for one the program had to wait for. Rank 0
 * MPI_Isends T1 to rank 1 and T2 to rank 2 (tag 1), waits for either with
 * MPI_Waitany, sends X to rank 1 (tag 2), and waits for both. Rank 1
 * computes 300 ms, receives X, then T1; rank 2 computes 100 ms and
 * receives T2. (Found by a review that wrote programs against the model.)
 *
 * Why no finding: with MPI_Ssend semantics T1 completes only once rank 1
 * receives it, after X, which rank 0 sends only after its MPI_Waitany; so
 * MPI_Waitany returns T2, and then X and T1 complete: the program
 * completes in every order. In this run both sends are let go (their
 * receivers compute) and MPI_Waitany returns T1.
 *
 * How this fails without the rule: T1 counted as a send rank 0 waited
 * for, X then told rank 1 it depends on T1, and rank 1's receive of T1
 * "closed a cycle" (a false potential deadlock with the library of
 * 1e76849 on both MPIs). A test or a choice among requests that answers
 * "completed" now ends the model's following of the rank.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, t1 = 11, t2 = 12, x = 3, r = 0, rx = 0, idx = -1;
    MPI_Request rq[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&t1, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(&t2, 1, MPI_INT, 2, 1, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Recv(&rx, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&r, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        usleep(100000);
        MPI_Recv(&r, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return rank == 0 ? (idx == 0 || idx == 1 ? 0 : 1) : rank == 1 ? (r == 11 && rx == 3 ? 0 : 1) : (r == 12 ? 0 : 1);
}
