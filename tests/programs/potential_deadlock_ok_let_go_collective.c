/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: strict mode's model of synchronous sends across blocking
 * collectives (src/p2p/synccoll.c) finds no cycle where the calls' order
 * breaks every one, although rank 0's sends are let go (their receiver
 * computes) before collectives:
 *  1. rank 0 sends to rank 1 and calls MPI_Barrier; rank 1 computes,
 *     receives, then calls MPI_Barrier;
 *  2. the same, but rank 1 only posts MPI_Irecv before the barrier and
 *     waits for it after;
 *  3. rank 0's MPI_Isend to rank 1 is completed only after the barrier;
 *     rank 1 receives after it;
 *  4. rank 0 sends to rank 2 and calls MPI_Allreduce on a communicator of
 *     ranks 0 and 1; rank 1 then sends to rank 2, which computes and
 *     receives rank 0's message before rank 1's;
 *  5. 40 more collectives of each kind the handshake folds (MPI_Barrier,
 *     MPI_Allreduce, MPI_Bcast), so that the handshakes go by
 *     point-to-point, and 1 and 2 again.
 *
 * Why no finding: with MPI_Ssend semantics every send completes, as each
 * receive it needs is posted before the collective that follows it (1, 2,
 * 4), or the send is nonblocking and waited for only after the collective
 * (3).
 *
 * How this fails when the model is wrong: a dependency the collective
 * brings used for a receive posted before the collective (2), for a
 * message received already (1, 4), or taken from a send not completed
 * before the collective (3), reports a potential deadlock here.
 */
#include <mpi.h>
#include <unistd.h>

static int rank;

static void phase_received_before(int tag)
{
    int v = tag, in = -1;
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Recv(&in, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

static void phase_posted_before(int tag)
{
    int v = tag, in = -1;
    MPI_Request r;
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Irecv(&in, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, &r);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int v = 1, in = -1, sum = 0, b = 0;
    MPI_Request r;
    MPI_Comm pair;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);

    phase_received_before(1);
    phase_posted_before(2);

    if (rank == 0) {                                    /* 3 */
        MPI_Isend(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }

    if (rank == 0) {                                    /* 4 */
        MPI_Send(&v, 1, MPI_INT, 2, 4, MPI_COMM_WORLD);
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, pair);
    } else if (rank == 1) {
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, pair);
        MPI_Send(&v, 1, MPI_INT, 2, 4, MPI_COMM_WORLD);
    } else {
        usleep(300000);
        MPI_Recv(&in, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&in, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    for (int i = 0; i < 40; i++) {                      /* 5 */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        b = rank == 0 ? i : -1;
        MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    phase_received_before(5);
    phase_posted_before(6);

    if (pair != MPI_COMM_NULL)
        MPI_Comm_free(&pair);
    MPI_Finalize();
    return sum == 3 && b == 39 ? 0 : 1;
}
