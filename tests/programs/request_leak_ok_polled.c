/* EXPECT: OK  NP: 2 */
/*
 * Checks: requests completed by polling MPI_Test raise nothing, and the
 * polls answer what MPI would. Rank 0 computes a while before it sends, so
 * rank 1's polls mostly find the requests not complete (the checker's
 * short path for those, runtime/complete.c) before one finds each done:
 *  1. an MPI_Irecv from rank 0, with its status checked;
 *  2. an MPI_Irecv from MPI_ANY_SOURCE with MPI_ANY_TAG;
 *  3. a persistent receive (MPI_Recv_init), started twice, each polled to
 *     completion, then freed;
 *  4. rank 1's MPI_Isend polled to completion while rank 0 computes before
 *     receiving it.
 * Every request completes before MPI_Finalize.
 *
 * Why it must finish silently: polling with MPI_Test until the flag is
 * set completes a request (MPI-4.0 sec. 3.7.3).
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void compute(void)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

static long poll(MPI_Request *r, MPI_Status *st)
{
    int flag = 0;
    long polls = 0;
    while (!flag) {
        MPI_Test(r, &flag, st);
        polls++;
    }
    return polls;
}

int main(int argc, char **argv)
{
    int rank, size, v[4] = {0, 0, 0, 0}, bad = 0;
    MPI_Request r;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int out[4] = {11, 22, 33, 44}, in = 0;
        compute();
        MPI_Send(&out[0], 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        compute();
        MPI_Send(&out[1], 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        for (int k = 0; k < 2; k++) {
            compute();
            MPI_Send(&out[2 + k], 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        }
        compute();
        MPI_Recv(&in, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad |= in != 55;
    } else if (rank == 1) {
        int count = -1, out = 55;
        MPI_Irecv(&v[0], 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r);
        poll(&r, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        bad |= v[0] != 11 || st.MPI_SOURCE != 0 || st.MPI_TAG != 1 || count != 1 || r != MPI_REQUEST_NULL;
        MPI_Irecv(&v[1], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        poll(&r, &st);
        bad |= v[1] != 22 || st.MPI_SOURCE != 0 || st.MPI_TAG != 2;
        MPI_Recv_init(&v[2], 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &r);
        for (int k = 0; k < 2; k++) {
            v[2] = 0;
            MPI_Start(&r);
            poll(&r, &st);
            bad |= v[2] != (k ? 44 : 33) || st.MPI_TAG != 3 || r == MPI_REQUEST_NULL;
        }
        MPI_Request_free(&r);
        MPI_Isend(&out, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r);
        poll(&r, MPI_STATUS_IGNORE);
        bad |= r != MPI_REQUEST_NULL;
    }
    if (bad)
        printf("TEST FAILED: rank %d: wrong value, status or handle after polling\n", rank);
    MPI_Finalize();
    return 0;
}
