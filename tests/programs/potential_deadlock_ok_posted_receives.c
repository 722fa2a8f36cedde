/* EXPECT: OK  NP: 2  MODE: strict */
/*
 * Checks: notices of posted receives (docs/design.md, "Notices of posted
 * receives") on a correct program: receives posted long before their
 * sends, on several tags, by a receiver that computes meanwhile, with
 * receives for messages already there, a wildcard receive that ends the
 * notices on one communicator, and a duplicated communicator that keeps
 * its own counts.
 *
 * Why no finding: every send's receive is posted before rank 0 reaches
 * the send that needs it, so synchronous sends would complete too.
 *
 * How this fails: a notice counted on the wrong communicator or tag, or
 * one sent after a wildcard receive, would leave a send waiting for a
 * receive that is already matched (a false potential deadlock, or a hang
 * until the test's limit).
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

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
    int rank, in[8] = {0}, v = 1, errs = 0;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int round = 0; round < 3; round++) {
        if (rank == 1) {
            MPI_Request r[6];
            MPI_Irecv(&in[0], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[0]);
            MPI_Irecv(&in[1], 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[1]);
            MPI_Irecv(&in[2], 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[2]);
            MPI_Irecv(&in[3], 1, MPI_INT, 0, 5, dup, &r[3]);
            MPI_Irecv(&in[4], 1, MPI_INT, 0, 100 + round, dup, &r[4]);
            MPI_Barrier(MPI_COMM_WORLD);
            compute(0.03);
            MPI_Irecv(&in[5], 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r[5]);   /* message already here */
            MPI_Status st[6];
            MPI_Waitall(6, r, st);
            errs += in[0] != 1 || in[3] != 4;
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
            v = 2;
            MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
            MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
            v = 4;
            MPI_Send(&v, 1, MPI_INT, 1, 5, dup);
            MPI_Send(&v, 1, MPI_INT, 1, 100 + round, dup);
            MPI_Send(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
            v = 1;
        }
    }
    /* A wildcard receive: notices end on dup, sends on it wait as before. */
    if (rank == 1) {
        MPI_Request r;
        MPI_Irecv(&in[6], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &r);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Recv(&in[7], 1, MPI_INT, 0, 6, dup, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(&v, 1, MPI_INT, 1, 6, dup);
        MPI_Send(&v, 1, MPI_INT, 1, 6, dup);
    }
    MPI_Comm_free(&dup);
    if (errs)
        printf("TEST FAILED: %d rounds received the wrong values\n", errs);
    MPI_Finalize();
    return errs != 0;
}
