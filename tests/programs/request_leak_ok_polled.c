/* EXPECT: OK  NP: 2 */
/*
 * Checks: requests completed by polling MPI_Test raise nothing, and the
 * polls answer what MPI would. Rank 0 computes a while before it sends, so
 * rank 1's polls mostly find the requests not complete (the checker's
 * short path for those, runtime/poll.c) before one finds each done:
 *  1. an MPI_Irecv from rank 0, with its status checked;
 *  2. an MPI_Irecv from MPI_ANY_SOURCE with MPI_ANY_TAG;
 *  3. a persistent receive (MPI_Recv_init), started twice, each polled to
 *     completion, then freed;
 *  4. rank 1's MPI_Isend polled to completion while rank 0 computes before
 *     receiving it;
 *  5. two receives polled with MPI_Testany, then two with MPI_Testsome, then
 *     two with MPI_Testall, each until all are complete, with their
 *     indices and values checked.
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

/* Polls reqs[0..1] with MPI_Testany (how 0), MPI_Testsome (1) or
 * MPI_Testall (2) until both completed; 0 when every answer made sense. */
static int poll_two(MPI_Request *reqs, int how, const int *got, int want0, int want1)
{
    int done[2] = {0, 0}, bad = 0, flag = 0;
    MPI_Status sts[2];
    while (!(done[0] && done[1])) {
        if (how == 0) {
            int index = -5;
            MPI_Testany(2, reqs, &index, &flag, MPI_STATUS_IGNORE);
            if (flag && index != MPI_UNDEFINED) {
                bad |= index < 0 || index > 1 || done[index];
                if (index >= 0 && index <= 1)
                    done[index] = 1;
            }
        } else if (how == 1) {
            int outcount = -5, indices[2];
            MPI_Testsome(2, reqs, &outcount, indices, sts);
            bad |= outcount < 0 && outcount != MPI_UNDEFINED;
            for (int k = 0; k < outcount && k < 2; k++)
                done[indices[k]] = 1;
        } else {
            MPI_Testall(2, reqs, &flag, sts);
            if (flag)
                done[0] = done[1] = 1;
        }
    }
    return bad || got[0] != want0 || got[1] != want1 || reqs[0] != MPI_REQUEST_NULL
           || reqs[1] != MPI_REQUEST_NULL;
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
        for (int k = 0; k < 6; k++) {
            int x = 100 + k;
            compute();
            MPI_Send(&x, 1, MPI_INT, 1, 10 + k, MPI_COMM_WORLD);
        }
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
        for (int how = 0; how < 3; how++) {
            int got[2] = {0, 0};
            MPI_Request two[2];
            for (int k = 0; k < 2; k++)
                MPI_Irecv(&got[k], 1, MPI_INT, 0, 10 + 2 * how + k, MPI_COMM_WORLD, &two[k]);
            bad |= poll_two(two, how, got, 100 + 2 * how, 101 + 2 * how);
        }
    }
    if (bad)
        printf("TEST FAILED: rank %d: wrong value, status or handle after polling\n", rank);
    MPI_Finalize();
    return 0;
}
