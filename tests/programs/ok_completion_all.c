/* EXPECT: OK  NP: 3 */
/*
 * Checks: every completion function and request kind, used correctly; every
 * request is completed or freed; no finding expected.
 *
 *  - MPI_Test / MPI_Testany / MPI_Testall / MPI_Testsome polling loops, with
 *    MPI_REQUEST_NULL entries in the arrays (they are ignored, sec. 3.7.5);
 *    Testany/Waitany with nothing active return index MPI_UNDEFINED, Testsome/
 *    Waitsome return outcount MPI_UNDEFINED.
 *  - MPI_Waitany / MPI_Waitsome / MPI_Waitall with MPI_REQUEST_NULL entries
 *    and zero-length arrays.
 *  - MPI_Request_get_status: does not free the request (sec. 3.7.3), so the
 *    request is still completed with MPI_Wait afterwards.
 *  - MPI_Cancel of an MPI_Irecv that can never match, then MPI_Wait (a
 *    cancelled request must still be completed) and MPI_Test_cancelled.
 *  (MPI_Request_free of an active MPI_Isend is legal too, but the checker
 *  warns of it: request_free_active_isend.c.)
 *  - persistent MPI_Send_init / MPI_Ssend_init / MPI_Recv_init started many
 *    times with MPI_Start / MPI_Startall and completed by every completion
 *    function, then MPI_Request_free; a persistent request freed without ever
 *    being started; a started persistent receive cancelled, waited for, freed.
 *  - generalized requests: MPI_Grequest_start / MPI_Grequest_complete, then
 *    MPI_Wait or an MPI_Test loop.
 */
#include <mpi.h>
#include <stdio.h>

static int rank, size, fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

static int gq_calls, gfree_calls;

static int g_query(void *extra, MPI_Status *status)
{
    (void)extra;
    gq_calls++;
    MPI_Status_set_elements(status, MPI_INT, 3);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int g_free(void *extra)
{
    (void)extra;
    gfree_calls++;
    return MPI_SUCCESS;
}

static int g_cancel(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int flag, idx, outcount, indices[8];
    MPI_Status st, sts[8];

    /* --- A: MPI_Test loop */
    {
        int v = rank == 1 ? 11 : 0;
        MPI_Request r;
        if (rank == 0) {
            MPI_Irecv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r);
            do
                MPI_Test(&r, &flag, &st);
            while (!flag);
            CHECK(v == 11 && st.MPI_SOURCE == 1 && r == MPI_REQUEST_NULL);
            /* testing a null request is legal: flag = true, empty status */
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            CHECK(flag);
        } else if (rank == 1) {
            MPI_Isend(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }

    /* --- B: MPI_Testany loop over an array with MPI_REQUEST_NULL holes */
    {
        int in[2] = {0, 0}, out = 20 + rank;
        if (rank == 0) {
            MPI_Request rs[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
            MPI_Irecv(&in[0], 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &rs[1]);
            MPI_Irecv(&in[1], 1, MPI_INT, 2, 2, MPI_COMM_WORLD, &rs[3]);
            int done = 0;
            while (done < 2) {
                MPI_Testany(4, rs, &idx, &flag, &st);
                if (flag && idx != MPI_UNDEFINED) {
                    CHECK(idx == 1 || idx == 3);
                    done++;
                }
            }
            MPI_Testany(4, rs, &idx, &flag, &st);
            CHECK(flag && idx == MPI_UNDEFINED);
            CHECK(in[0] == 21 && in[1] == 22);
        } else {
            MPI_Send(&out, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        }
    }

    /* --- C: MPI_Testall loop on a ring */
    {
        int sv = rank, rv = -1;
        MPI_Request rs[3];
        MPI_Irecv(&rv, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &rs[0]);
        MPI_Isend(&sv, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &rs[1]);
        rs[2] = MPI_REQUEST_NULL;
        do
            MPI_Testall(3, rs, &flag, sts);
        while (!flag);
        CHECK(rv == left);
        /* zero-length arrays */
        MPI_Request none[1];
        MPI_Testall(0, none, &flag, sts);
        CHECK(flag);
        MPI_Waitall(0, none, sts);
    }

    /* --- D: MPI_Testsome loop */
    {
        int in[2] = {0, 0}, out = 40 + rank;
        if (rank == 0) {
            MPI_Request rs[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
            MPI_Irecv(&in[0], 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &rs[0]);
            MPI_Irecv(&in[1], 1, MPI_INT, 2, 4, MPI_COMM_WORLD, &rs[2]);
            int done = 0;
            while (done < 2) {
                MPI_Testsome(4, rs, &outcount, indices, sts);
                CHECK(outcount != MPI_UNDEFINED);
                if (outcount != MPI_UNDEFINED)
                    done += outcount;
            }
            MPI_Testsome(4, rs, &outcount, indices, sts);
            CHECK(outcount == MPI_UNDEFINED);
            CHECK(in[0] == 41 && in[1] == 42);
        } else {
            MPI_Request r;
            MPI_Isend(&out, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }

    /* --- E, F: MPI_Waitany / MPI_Waitsome with null entries */
    {
        int in[2] = {0, 0}, out = 50 + rank;
        if (rank == 0) {
            MPI_Request rs[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
            MPI_Irecv(&in[0], 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &rs[1]);
            MPI_Irecv(&in[1], 1, MPI_INT, 2, 5, MPI_COMM_WORLD, &rs[3]);
            for (int k = 0; k < 2; k++) {
                MPI_Waitany(4, rs, &idx, &st);
                CHECK(idx == 1 || idx == 3);
            }
            MPI_Waitany(4, rs, &idx, &st);
            CHECK(idx == MPI_UNDEFINED);
            CHECK(in[0] == 51 && in[1] == 52);

            MPI_Irecv(&in[0], 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &rs[0]);
            MPI_Irecv(&in[1], 1, MPI_INT, 2, 6, MPI_COMM_WORLD, &rs[2]);
            int done = 0;
            while (done < 2) {
                MPI_Waitsome(4, rs, &outcount, indices, sts);
                done += outcount;
            }
            MPI_Waitsome(4, rs, &outcount, indices, sts);
            CHECK(outcount == MPI_UNDEFINED);
        } else {
            MPI_Send(&out, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
            MPI_Ssend(&out, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
        }
    }

    /* --- G: MPI_Request_get_status, then the request is still waited for */
    {
        int v = 70;
        MPI_Request r;
        if (rank == 0) {
            MPI_Irecv(&v, 1, MPI_INT, 2, 7, MPI_COMM_WORLD, &r);
            do
                MPI_Request_get_status(r, &flag, &st);
            while (!flag);
            CHECK(r != MPI_REQUEST_NULL && st.MPI_SOURCE == 2);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        } else if (rank == 2) {
            MPI_Issend(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r);
            do
                MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
            while (!flag);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
    }

    /* --- H: cancel an unmatched MPI_Irecv, wait for it, test the status */
    {
        int v;
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag);
    }

    /* --- J: persistent requests, many starts, every completion function */
    {
        int sv = 0, rv = -1;
        MPI_Request pr[2], unused;
        MPI_Recv_init(&rv, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &pr[0]);
        MPI_Send_init(&sv, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &pr[1]);
        /* a persistent request that is never started: freeing it is enough */
        MPI_Ssend_init(&sv, 1, MPI_INT, right, 10, MPI_COMM_WORLD, &unused);
        for (int it = 0; it < 5; it++) {
            sv = 100 * it + rank;
            MPI_Startall(2, pr);
            MPI_Waitall(2, pr, sts);
            CHECK(rv == 100 * it + left);
        }
        for (int mode = 0; mode < 5; mode++) {
            sv = 1000 + mode;
            MPI_Start(&pr[0]);
            MPI_Start(&pr[1]);
            int done = 0;
            switch (mode) {
            case 0:     /* Testany: inactive persistent requests count as null */
                while (done < 2) {
                    MPI_Testany(2, pr, &idx, &flag, &st);
                    if (flag && idx != MPI_UNDEFINED)
                        done++;
                }
                MPI_Testany(2, pr, &idx, &flag, &st);
                CHECK(flag && idx == MPI_UNDEFINED);
                break;
            case 1:
                while (done < 2) {
                    MPI_Testsome(2, pr, &outcount, indices, sts);
                    if (outcount != MPI_UNDEFINED)
                        done += outcount;
                }
                break;
            case 2:
                MPI_Waitany(2, pr, &idx, &st);
                MPI_Waitany(2, pr, &idx, &st);
                MPI_Waitany(2, pr, &idx, &st);
                CHECK(idx == MPI_UNDEFINED);
                break;
            case 3:
                while (done < 2) {
                    MPI_Waitsome(2, pr, &outcount, indices, sts);
                    done += outcount;
                }
                break;
            default:
                for (int k = 0; k < 2; k++) {
                    do
                        MPI_Test(&pr[k], &flag, &st);
                    while (!flag);
                }
                break;
            }
            CHECK(rv == 1000 + mode);
            CHECK(pr[0] != MPI_REQUEST_NULL && pr[1] != MPI_REQUEST_NULL);
        }
        MPI_Request_free(&pr[0]);
        MPI_Request_free(&pr[1]);
        MPI_Request_free(&unused);

        /* a started persistent receive that never matches: cancel, wait, free */
        MPI_Request pc;
        int v;
        MPI_Recv_init(&v, 1, MPI_INT, MPI_ANY_SOURCE, 998, MPI_COMM_WORLD, &pc);
        MPI_Start(&pc);
        MPI_Cancel(&pc);
        MPI_Wait(&pc, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag);
        MPI_Request_free(&pc);
    }

    /* --- K: generalized requests */
    {
        MPI_Request g1, g2;
        MPI_Grequest_start(g_query, g_free, g_cancel, NULL, &g1);
        MPI_Grequest_start(g_query, g_free, g_cancel, NULL, &g2);
        MPI_Grequest_complete(g1);
        MPI_Wait(&g1, &st);
        int n;
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(n == 3);
        MPI_Grequest_complete(g2);
        do
            MPI_Test(&g2, &flag, MPI_STATUS_IGNORE);
        while (!flag);
        CHECK(gfree_calls == 2 && gq_calls >= 2);
    }

    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_completion_all: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
