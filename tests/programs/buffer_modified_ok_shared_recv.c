/* EXPECT: OK  NP: 2 */
/*
 * Checks: receives that share a buffer are not a buffer-modified error.
 * Part 1 (MPI-CorrBench's copy of MPICH's pt2pt/inactivereq at 2 ranks):
 * rank 0 posts one MPI_Irecv per rank into the same 10 ints, then both
 * ranks start a persistent send of different data to rank 0, and rank 0
 * completes everything with MPI_Wait and MPI_Waitall. Part 2: rank 1
 * posts an MPI_Irecv, and, once its data has come (a later message can be
 * probed), a blocking MPI_Recv of other data into the same buffer, then
 * completes the MPI_Irecv.
 *
 * Why it is correct: two receives into the same bytes leave them holding
 * one message or the other; the standard does not call that erroneous
 * (docs/checks.md, buffer-overlap), and the checker does not report the
 * overlap. Before, it still compared each receive's bytes with its own
 * message at completion, found the other one's there, and reported an
 * ERROR buffer-modified (exit status 3) on a correct program.
 */
#include <mpi.h>
#include <stdlib.h>

#define N 10

int main(int argc, char **argv)
{
    int rank, size, buf[N], rbuf[N], x[N], y[N];
    MPI_Request r, *rr;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < N; i++)
        buf[i] = 1000 * rank + i;

    MPI_Send_init(buf, N, MPI_INT, 0, 27, MPI_COMM_WORLD, &r);
    if (rank == 0) {
        rr = malloc(size * sizeof *rr);
        for (int i = 0; i < size; i++)
            MPI_Irecv(rbuf, N, MPI_INT, i, 27, MPI_COMM_WORLD, &rr[i]);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Waitall(size, rr, MPI_STATUSES_IGNORE);
        free(rr);
    } else {
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r);

    if (rank == 0) {
        for (int i = 0; i < N; i++)
            y[i] = i;
        MPI_Isend(y, N, MPI_INT, 1, 1, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            y[i] = -i;
        MPI_Isend(y, N, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Irecv(x, N, MPI_INT, 0, 1, MPI_COMM_WORLD, &r);
        /* The tag-2 message comes after the tag-1 one (no overtaking
         * between a pair): once it can be probed, the first is here. */
        MPI_Status st;
        MPI_Probe(0, 2, MPI_COMM_WORLD, &st);
        MPI_Recv(x, N, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
