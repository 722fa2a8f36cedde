/* EXPECT: potential-deadlock  NP: 2  MODE: strict */
/*
 * Checks: a notice of a posted receive acknowledges the send that receive
 * will take, and no other (docs/design.md, "Notices of posted receives":
 * counted per communicator, peer and tag).
 *
 * Rank 1 posts a receive for tag 9 and one for tag 5, then waits in
 * MPI_Recv for tag 7, and only then posts its second receive for tag 5.
 * Rank 0 sends tag 5 twice, then tag 9, then tag 7. Before that, one
 * receive from the same call site (post()) is left waiting while rank 1
 * computes 20 ms, so that the site's receives send notices.
 *
 * Why a warning: with synchronous sends rank 0's second tag-5 send waits
 * for rank 1's second tag-5 receive, which rank 1 posts after receiving
 * tag 7, which rank 0 sends after that send: a cycle. Every MPI buffers
 * the small messages, so the program completes plainly.
 *
 * How this fails when notices are counted wrongly: two notices came from
 * rank 1 before rank 0's second tag-5 send; counted per peer instead of
 * per tag, the second would acknowledge it, and the cycle would be missed.
 */
#include <mpi.h>
#include <time.h>

static void post(int *buf, int tag, MPI_Request *req)
{
    MPI_Irecv(buf, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, req);
}

static void compute(double seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 < seconds);
}

int main(int argc, char **argv)
{
    int rank, a = 0, b = 0, c = 0, d = 0, v = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {                /* the warm-up: tag 11 */
        MPI_Request w;
        post(&a, 11, &w);
        compute(0.02);
        MPI_Wait(&w, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&v, 1, MPI_INT, 1, 11, MPI_COMM_WORLD);
    }
    if (rank == 1) {
        MPI_Request r[2];
        post(&a, 9, &r[0]);
        post(&b, 5, &r[1]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(&c, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&d, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
