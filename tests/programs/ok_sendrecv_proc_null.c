/* EXPECT: OK  NP: 2 */
/*
 * Checks: MPI_Sendrecv and MPI_Sendrecv_replace corner cases between ranks 0
 * and 1 (peer = the other rank):
 *  1. MPI_Sendrecv with source MPI_PROC_NULL (rank 0 sends 3 ints to rank 1)
 *     and, on rank 1, dest MPI_PROC_NULL with a real source; then both ends
 *     MPI_PROC_NULL. Every status from MPI_PROC_NULL must be source
 *     MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 (it is first filled with
 *     garbage); the real receive's status and data are checked.
 *  2. MPI_Sendrecv_replace with a datatype of negative extent: 2 MPI_INT
 *     resized to extent -3 ints, count 3, buffer start at element 6 of 9, so
 *     the elements are ints 6-7, 3-4, 0-1 and ints 2, 5, 8 are gaps that
 *     must stay untouched. Both ranks exchange; rank 1 first waits in
 *     MPI_Probe for rank 0's message, so that it is already there when rank
 *     1's receive is posted. Again with count
 *     20000 (240 kB, sent by rendezvous), where sending from the buffer the
 *     receive is filling would corrupt the data.
 *  3. The same with MPI_Type_vector(4, 1, -1, MPI_INT) (negative stride,
 *     true lower bound -3 ints), count 2.
 *  4. With MPI 4 (not MPICH 4.0.x, whose own nonblocking forms fail these
 *     checks): MPI_Isendrecv_replace with the type of step 2, and
 *     MPI_Isendrecv to the peer with source MPI_PROC_NULL (the peer's
 *     message taken by an MPI_Irecv posted before, completed by MPI_Waitall).
 * Wrong data or a wrong status aborts the job.
 *
 * Why it is correct: a communication with MPI_PROC_NULL succeeds at once,
 * and a receive from it returns source MPI_PROC_NULL, tag MPI_ANY_TAG and
 * count 0 (MPI-3.1 sec. 3.11). MPI_Sendrecv_replace sends the buffer's
 * contents and replaces them with the message received, with the same count
 * and datatype (sec. 3.10). A vector's stride may be negative (sec. 4.1.2)
 * and MPI_Type_create_resized may set a negative extent (sec. 4.1.7); count
 * elements lie at successive multiples of the extent from the buffer address
 * (sec. 4.1.1), so every layout used here is well defined. Both sides
 * use the same type map, so the signatures match. MPI_Probe returns once a
 * matching send was started (sec. 3.8.1) and does not receive the message,
 * which the MPI_Sendrecv_replace then takes. A checker that copies the
 * outgoing data only for a non-negative extent (or copies the wrong span)
 * sends data already overwritten by the receive, or data from outside.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define BIG 20000

static int rank, big[3 * BIG], bigmask[3 * BIG];

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result: %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void garbage(MPI_Status *st)
{
    memset(st, 0x5a, sizeof *st);
    st->MPI_SOURCE = 12345;
    st->MPI_TAG = 54321;
}

static void check_proc_null(const MPI_Status *st, const char *what)
{
    int count = -1;
    MPI_Get_count(st, MPI_INT, &count);
    if (st->MPI_SOURCE != MPI_PROC_NULL || st->MPI_TAG != MPI_ANY_TAG || count != 0)
        fprintf(stderr, "rank %d: %s: source %d tag %d count %d\n", rank, what,
                st->MPI_SOURCE, st->MPI_TAG, count);
    expect(st->MPI_SOURCE == MPI_PROC_NULL && st->MPI_TAG == MPI_ANY_TAG && count == 0, what);
}

/* buf[i] = base + i, for n ints */
static void fill(int *buf, int n, int base)
{
    for (int i = 0; i < n; i++)
        buf[i] = base + i;
}

/* After an exchange with the same type map on both sides: the element ints
 * (mask 1) hold the peer's values, the gaps (mask 0) still ours. */
static void check_exchange(const int *buf, const int *mask, int n, int mine, int peers,
                           const char *what)
{
    for (int i = 0; i < n; i++)
        if (buf[i] != (mask[i] ? peers : mine) + i) {
            fprintf(stderr, "rank %d: %s: int %d is %d, expected %d\n", rank, what, i, buf[i],
                    (mask[i] ? peers : mine) + i);
            expect(0, what);
        }
}

int main(int argc, char **argv)
{
    int peer, count, i, sbuf[3], rbuf[3], buf[9];
    int negmask[9] = {1, 1, 0, 1, 1, 0, 1, 1, 0};
    int vecmask[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    MPI_Datatype pair, negext, rvec;
    MPI_Aint lb, extent;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;

    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, -3 * (MPI_Aint)sizeof(int), &negext);
    MPI_Type_commit(&negext);
    MPI_Type_get_extent(negext, &lb, &extent);
    expect(extent == -3 * (MPI_Aint)sizeof(int), "extent of the resized type");
    MPI_Type_vector(4, 1, -1, MPI_INT, &rvec);
    MPI_Type_commit(&rvec);

    if (rank < 2) {
        /* 1: MPI_PROC_NULL source and/or destination */
        fill(sbuf, 3, 40);
        fill(rbuf, 3, -10);
        garbage(&st);
        if (rank == 0) {
            MPI_Sendrecv(sbuf, 3, MPI_INT, 1, 4, rbuf, 3, MPI_INT, MPI_PROC_NULL, 4,
                         MPI_COMM_WORLD, &st);
            check_proc_null(&st, "MPI_Sendrecv from MPI_PROC_NULL");
            expect(rbuf[0] == -10 && rbuf[2] == -8, "receive buffer untouched by MPI_PROC_NULL");
        } else {
            MPI_Sendrecv(sbuf, 3, MPI_INT, MPI_PROC_NULL, 4, rbuf, 3, MPI_INT, 0, 4,
                         MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            expect(st.MPI_SOURCE == 0 && st.MPI_TAG == 4 && count == 3,
                   "status of MPI_Sendrecv to MPI_PROC_NULL from rank 0");
            expect(rbuf[0] == 40 && rbuf[1] == 41 && rbuf[2] == 42,
                   "data of MPI_Sendrecv to MPI_PROC_NULL from rank 0");
        }
        garbage(&st);
        MPI_Sendrecv(sbuf, 3, MPI_INT, MPI_PROC_NULL, 5, rbuf, 3, MPI_INT, MPI_PROC_NULL, 5,
                     MPI_COMM_WORLD, &st);
        check_proc_null(&st, "MPI_Sendrecv with both ends MPI_PROC_NULL");
        fill(buf, 9, 0);
        garbage(&st);
        MPI_Sendrecv_replace(buf, 3, MPI_INT, MPI_PROC_NULL, 5, MPI_PROC_NULL, 5,
                             MPI_COMM_WORLD, &st);
        check_proc_null(&st, "MPI_Sendrecv_replace with both ends MPI_PROC_NULL");

        /* 2: negative extent. Rank 1 first probes rank 0's message, so it is
         * there when rank 1 posts its receive (and MPI may fill the buffer
         * at once, before rank 1's outgoing data is read from it). */
        fill(buf, 9, 100 * rank);
        if (rank == 1)
            MPI_Probe(0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(&buf[6], 3, negext, peer, 6, peer, 6, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, negext, &count);
        expect(st.MPI_SOURCE == peer && st.MPI_TAG == 6 && count == 3,
               "status of MPI_Sendrecv_replace, negative extent");
        check_exchange(buf, negmask, 9, 100 * rank, 100 * peer,
                       "MPI_Sendrecv_replace, negative extent");

        /* 2b: the same, 20000 elements (240 kB, past the eager limits) */
        fill(big, 3 * BIG, 1000000 * rank);
        for (i = 0; i < 3 * BIG; i++)
            bigmask[i] = i % 3 != 2;
        if (rank == 1)
            MPI_Probe(0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(&big[3 * (BIG - 1)], BIG, negext, peer, 6, peer, 6, MPI_COMM_WORLD,
                             &st);
        MPI_Get_count(&st, negext, &count);
        expect(st.MPI_SOURCE == peer && st.MPI_TAG == 6 && count == BIG,
               "status of MPI_Sendrecv_replace, negative extent, large");
        check_exchange(big, bigmask, 3 * BIG, 1000000 * rank, 1000000 * peer,
                       "MPI_Sendrecv_replace, negative extent, large");

        /* 3: negative stride */
        fill(buf, 8, 100 * rank);
        MPI_Sendrecv_replace(&buf[3], 2, rvec, peer, 7, peer, 7, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, rvec, &count);
        expect(st.MPI_SOURCE == peer && st.MPI_TAG == 7 && count == 2,
               "status of MPI_Sendrecv_replace, negative stride");
        check_exchange(buf, vecmask, 8, 100 * rank, 100 * peer,
                       "MPI_Sendrecv_replace, negative stride");

#if MPI_VERSION >= 4 && !(defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000)
        /* 4: the nonblocking forms (not with MPICH 4.0: run plainly, its
         * MPI_Isendrecv and MPI_Isendrecv_replace leave the status unset and
         * its MPI_Isendrecv_replace corrupts memory for a negative extent) */
        MPI_Request req, rr[2];
        MPI_Status sts[2];
        fill(buf, 9, 100 * rank + 50);
        MPI_Isendrecv_replace(&buf[6], 3, negext, peer, 8, peer, 8, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
        MPI_Get_count(&st, negext, &count);
        expect(st.MPI_SOURCE == peer && st.MPI_TAG == 8 && count == 3,
               "status of MPI_Isendrecv_replace, negative extent");
        check_exchange(buf, negmask, 9, 100 * rank + 50, 100 * peer + 50,
                       "MPI_Isendrecv_replace, negative extent");

        /* the peer's message is received by an MPI_Irecv posted first */
        fill(rbuf, 3, -10);
        MPI_Irecv(rbuf, 3, MPI_INT, peer, 9, MPI_COMM_WORLD, &rr[0]);
        MPI_Isendrecv(sbuf, 3, MPI_INT, peer, 9, buf, 3, MPI_INT, MPI_PROC_NULL, 9,
                      MPI_COMM_WORLD, &rr[1]);
        garbage(&sts[1]);
        MPI_Waitall(2, rr, sts);
        check_proc_null(&sts[1], "MPI_Isendrecv from MPI_PROC_NULL");
        MPI_Get_count(&sts[0], MPI_INT, &count);
        expect(sts[0].MPI_SOURCE == peer && sts[0].MPI_TAG == 9 && count == 3,
               "status of the MPI_Irecv of the MPI_Isendrecv message");
        expect(rbuf[0] == 40 && rbuf[1] == 41 && rbuf[2] == 42,
               "data of MPI_Isendrecv to the peer");
#endif
    }

    MPI_Type_free(&negext);
    MPI_Type_free(&pair);
    MPI_Type_free(&rvec);
    MPI_Finalize();
    return 0;
}
