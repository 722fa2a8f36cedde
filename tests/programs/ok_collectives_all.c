/* EXPECT: OK  NP: 4 */
/*
 * Checks: every intracommunicator collective, blocking and nonblocking, with
 * the arguments the standard declares insignificant or optional; no finding
 * expected. Roots are not rank 0 where it matters.
 *
 *  - MPI_IN_PLACE wherever sec. 6 allows it: Gather/Gatherv/Reduce at the
 *    root, Scatter/Scatterv at the root (as recvbuf), Allgather(v), Alltoall(v),
 *    Allreduce, Reduce_scatter(_block), Scan, Exscan, and their I-variants.
 *    With MPI_IN_PLACE the send count/type (Allgather, Alltoall) are ignored:
 *    0 and MPI_DATATYPE_NULL are passed.
 *  - v-variants with zero counts and NULL buffers on the ranks that send or
 *    receive nothing; the root-only arrays (counts, displs, type) of
 *    Gatherv/Scatterv are NULL / MPI_DATATYPE_NULL at non-roots.
 *  - MPI_Exscan / MPI_Iexscan: recvbuf is not significant at rank 0 (sec.
 *    6.11.2): NULL there.
 *  - MPI_Reduce with recvbuf NULL at non-roots (significant only at root).
 *  - MPI_Bcast of 0 elements from a NULL buffer.
 *  - MPI_Alltoallw with byte displacements and a zero count.
 *  - negative counts and MPI_DATATYPE_NULL in insignificant positions (both
 *    libraries accept them too).
 *  - user-defined non-commutative op (Op_create / Op_commutative / Op_free),
 *    used in Reduce, Allreduce, Scan, Iallreduce and Reduce_local.
 *  - several nonblocking collectives outstanding at once on one communicator
 *    (legal: every rank starts them in the same order, sec. 6.12), completed
 *    with Waitall, Waitany, Test loops.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, fails;

/* Exscan's recvbuf is not significant at rank 0 (MPI-4.0 sec. 6.11.2), so NULL
 * is legal there; MPICH 4.0.2 nevertheless rejects it ("Null buffer pointer"),
 * so under MPICH rank 0 passes a dummy buffer. */
#ifdef MPICH_VERSION
static int exscan_dummy;
#define EXSCAN_RANK0_RECVBUF (&exscan_dummy)
#else
#define EXSCAN_RANK0_RECVBUF NULL
#endif
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

/* (m, c) stands for x -> m*x + c; op(a, b) = "a, then b": associative, not commutative */
typedef struct { int m, c; } affine;

static void compose(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    affine *a = in, *b = inout;
    for (int i = 0; i < *len; i++) {
        affine r = {b[i].m * a[i].m, b[i].m * a[i].c + b[i].c};
        b[i] = r;
    }
}

static affine rank_fn(int r) { affine f = {r + 1, r}; return f; }

static affine expected_prefix(int upto)   /* composition of rank_fn(0..upto) */
{
    affine acc = {1, 0};
    for (int r = 0; r <= upto; r++) {
        affine f = rank_fn(r), n = {f.m * acc.m, f.m * acc.c + f.c};
        acc = n;
    }
    return acc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "needs 4 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm comm = MPI_COMM_WORLD;

    MPI_Datatype t_aff;
    MPI_Type_contiguous(2, MPI_INT, &t_aff);
    MPI_Type_commit(&t_aff);
    MPI_Op op_aff;
    MPI_Op_create(compose, 0, &op_aff);
    int commute;
    MPI_Op_commutative(op_aff, &commute);
    CHECK(!commute);
    MPI_Op_commutative(MPI_SUM, &commute);
    CHECK(commute);

    /* ================= blocking ================= */
    MPI_Barrier(comm);

    /* Bcast: zero elements from NULL, then real data from root 3 */
    MPI_Bcast(NULL, 0, MPI_INT, 2, comm);
    int bv[3] = {0, 0, 0};
    if (rank == 3) { bv[0] = 1; bv[1] = 2; bv[2] = 3; }
    MPI_Bcast(bv, 3, MPI_INT, 3, comm);
    CHECK(bv[2] == 3);

    /* Gather to root 2, MPI_IN_PLACE at the root */
    {
        int all[4] = {-1, -1, -1, -1}, mine = 10 + rank;
        if (rank == 2) {
            all[2] = 12;
            MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, 2, comm);
            CHECK(all[0] == 10 && all[3] == 13);
        } else {
            MPI_Gather(&mine, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 2, comm);
        }
    }

    /* Gatherv to root 1: rank r sends r ints (rank 0 sends none, from NULL) */
    {
        int counts[4] = {0, 1, 2, 3}, displs[4] = {0, 0, 1, 3};
        int send[3] = {rank, rank, rank}, recv[6];
        memset(recv, -1, sizeof recv);
        if (rank == 1) {
            MPI_Gatherv(send, 1, MPI_INT, recv, counts, displs, MPI_INT, 1, comm);
            CHECK(recv[0] == 1 && recv[1] == 2 && recv[5] == 3);
            /* again in place: the root's own block is already in recv */
            recv[0] = 1;
            MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, counts, displs, MPI_INT, 1, comm);
            CHECK(recv[0] == 1 && recv[2] == 2 && recv[4] == 3);
        } else {
            MPI_Gatherv(rank == 0 ? NULL : send, rank, MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, 1, comm);
            MPI_Gatherv(rank == 0 ? NULL : send, rank, MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, 1, comm);
        }
    }

    /* Scatter from root 0, then in place at the root */
    {
        int src[8] = {0, 1, 2, 3, 4, 5, 6, 7}, got[2] = {-1, -1};
        if (rank == 0) {
            MPI_Scatter(src, 2, MPI_INT, got, 2, MPI_INT, 0, comm);
            MPI_Scatter(src, 2, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, comm);
        } else {
            MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, got, 2, MPI_INT, 0, comm);
            CHECK(got[0] == 2 * rank);
            MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, got, 2, MPI_INT, 0, comm);
            CHECK(got[1] == 2 * rank + 1);
        }
    }

    /* Scatterv from root 3: counts 2, 0, 1, 3; rank 1 receives nothing into NULL */
    {
        int counts[4] = {2, 0, 1, 3}, displs[4] = {0, 2, 2, 3};
        int src[6] = {0, 1, 2, 3, 4, 5}, got[3] = {-1, -1, -1};
        if (rank == 3) {
            MPI_Scatterv(src, counts, displs, MPI_INT, got, 3, MPI_INT, 3, comm);
            CHECK(got[0] == 3 && got[2] == 5);
            MPI_Scatterv(src, counts, displs, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 3, comm);
        } else {
            for (int k = 0; k < 2; k++)
                MPI_Scatterv(NULL, NULL, NULL, MPI_DATATYPE_NULL, rank == 1 ? NULL : got,
                             counts[rank], MPI_INT, 3, comm);
            CHECK(rank == 1 || got[0] == displs[rank]);
        }
    }

    /* Allgather / Allgatherv in place; Allgatherv with a zero count from NULL */
    {
        int all[4];
        all[rank] = 100 + rank;
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, comm);
        CHECK(all[0] == 100 && all[3] == 103);
        int counts[4] = {0, 1, 2, 3}, displs[4] = {0, 0, 1, 3}, v[6], mine[3] = {rank, rank, rank};
        for (int k = 0; k < counts[rank]; k++)
            v[displs[rank] + k] = rank;
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, counts, displs, MPI_INT, comm);
        CHECK(v[0] == 1 && v[5] == 3);
        memset(v, -1, sizeof v);
        MPI_Allgatherv(rank == 0 ? NULL : mine, counts[rank], MPI_INT, v, counts, displs, MPI_INT, comm);
        CHECK(v[1] == 2 && v[3] == 3);
    }

    /* Alltoall, normal and in place */
    {
        int s[4], r[4];
        for (int j = 0; j < 4; j++)
            s[j] = 10 * rank + j;
        MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, comm);
        CHECK(r[2] == 20 + rank);
        MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, s, 1, MPI_INT, comm);
        CHECK(s[1] == 10 + rank);
    }

    /* Alltoallv: rank 0 exchanges nothing with anyone (NULL buffers) */
    {
        int sc[4], sd[4], rc[4], rd[4], s[4], r[4], n = 0;
        for (int j = 0; j < 4; j++) {
            sc[j] = rc[j] = (rank == 0 || j == 0) ? 0 : 1;
            sd[j] = rd[j] = n;
            n += sc[j];
            s[j] = 100 * rank + j;
            r[j] = -1;
        }
        MPI_Alltoallv(rank == 0 ? NULL : s, sc, sd, MPI_INT, rank == 0 ? NULL : r, rc, rd, MPI_INT, comm);
        /* sender j sends its element sd_j[rank] = rank - 1, i.e. 100 * j + rank - 1 */
        CHECK(rank == 0 || (r[0] == 100 + rank - 1 && r[2] == 300 + rank - 1));
        /* in place: sendcounts, sdispls, sendtype ignored */
        int io[4];
        for (int j = 0; j < 4; j++)
            io[j] = 100 * rank + j;
        int c1[4] = {1, 1, 1, 1}, d1[4] = {0, 1, 2, 3};
        MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, io, c1, d1, MPI_INT, comm);
        CHECK(io[3] == 300 + rank);
    }

    /* Alltoallw: byte displacements, a zero count towards rank 0 */
    {
        int s[4], r[4], sc[4], rc[4], sd[4], rd[4];
        MPI_Datatype st[4], rt[4];
        for (int j = 0; j < 4; j++) {
            s[j] = 1000 * rank + j;
            r[j] = -1;
            sc[j] = j == 0 ? 0 : 1;
            rc[j] = rank == 0 ? 0 : 1;
            sd[j] = rd[j] = j * (int)sizeof(int);
            st[j] = rt[j] = MPI_INT;
        }
        MPI_Alltoallw(s, sc, sd, st, r, rc, rd, rt, comm);
        CHECK(rank == 0 || r[3] == 3000 + rank);
    }

    /* Reduce to root 1 (in place at root, NULL recvbuf elsewhere); Allreduce in place */
    {
        int v = rank + 1;
        if (rank == 1) {
            MPI_Reduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, 1, comm);
            CHECK(v == 10);
        } else {
            MPI_Reduce(&v, NULL, 1, MPI_INT, MPI_SUM, 1, comm);
        }
        int w = rank;
        MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_INT, MPI_MAX, comm);
        CHECK(w == 3);
        affine f = rank_fn(rank), g;
        MPI_Reduce(&f, &g, 1, t_aff, op_aff, 2, comm);
        affine e = expected_prefix(3);
        CHECK(rank != 2 || (g.m == e.m && g.c == e.c));
        MPI_Allreduce(&f, &g, 1, t_aff, op_aff, comm);
        CHECK(g.m == e.m && g.c == e.c);
        MPI_Scan(&f, &g, 1, t_aff, op_aff, comm);
        e = expected_prefix(rank);
        CHECK(g.m == e.m && g.c == e.c);
    }

    /* Reduce_scatter (counts 1, 0, 2, 1: rank 1 gets nothing, recvbuf NULL) and _block */
    {
        int counts[4] = {1, 0, 2, 1}, s[4], r[2] = {-1, -1};
        for (int j = 0; j < 4; j++)
            s[j] = j;
        MPI_Reduce_scatter(s, rank == 1 ? NULL : r, counts, MPI_INT, MPI_SUM, comm);
        CHECK(rank != 2 || (r[0] == 4 && r[1] == 8));
        for (int j = 0; j < 4; j++)
            s[j] = j;
        MPI_Reduce_scatter(MPI_IN_PLACE, s, counts, MPI_INT, MPI_SUM, comm);
        CHECK(rank != 3 || s[0] == 12);
        int b[8], rb[2];
        for (int j = 0; j < 8; j++)
            b[j] = j;
        MPI_Reduce_scatter_block(b, rb, 2, MPI_INT, MPI_SUM, comm);
        CHECK(rb[1] == 4 * (2 * rank + 1));
        MPI_Reduce_scatter_block(MPI_IN_PLACE, b, 2, MPI_INT, MPI_SUM, comm);
        CHECK(b[0] == 4 * (2 * rank));
    }

    /* Scan / Exscan: Exscan's recvbuf is not significant at rank 0 */
    {
        int v = rank + 1, s = 0, x = -1;
        MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, comm);
        CHECK(s == (rank + 1) * (rank + 2) / 2);
        MPI_Scan(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, comm);
        CHECK(v == s);
        v = rank + 1;
        MPI_Exscan(&v, rank == 0 ? EXSCAN_RANK0_RECVBUF : &x, 1, MPI_INT, MPI_SUM, comm);
        CHECK(rank == 0 || x == rank * (rank + 1) / 2);
        MPI_Exscan(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, comm);
        CHECK(rank == 0 || v == rank * (rank + 1) / 2);
    }

    /* Reduce_local, built-in and user op */
    {
        int a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
        MPI_Reduce_local(a, b, 3, MPI_INT, MPI_SUM);
        CHECK(b[2] == 33);
        affine f = rank_fn(0), g = rank_fn(1);
        MPI_Reduce_local(&f, &g, 1, t_aff, op_aff);
        affine e = expected_prefix(1);
        CHECK(g.m == e.m && g.c == e.c);
    }

    /* Insignificant arguments may hold anything, negative counts included:
     * the receive count/type of Gather at non-roots, the send count/type of
     * Scatter at non-roots (sec. 6.5, 6.6), the send count/type next to
     * MPI_IN_PLACE ("ignored", sec. 6.5, 6.7, 6.8). */
    {
        int v = rank, all[4] = {-1, -1, -1, -1}, got = -1;
        if (rank == 1)
            MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 1, comm);
        else
            MPI_Gather(&v, 1, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, 1, comm);
        CHECK(rank != 1 || all[3] == 3);
        if (rank == 1)
            MPI_Scatter(all, 1, MPI_INT, &got, 1, MPI_INT, 1, comm);
        else
            MPI_Scatter(NULL, -7, MPI_DATATYPE_NULL, &got, 1, MPI_INT, 1, comm);
        CHECK(got == rank);
        if (rank == 2) {
            all[2] = 2;
            MPI_Gather(MPI_IN_PLACE, -3, MPI_DATATYPE_NULL, all, 1, MPI_INT, 2, comm);
        } else
            MPI_Gather(&v, 1, MPI_INT, NULL, -3, MPI_DATATYPE_NULL, 2, comm);
        all[rank] = v;
        MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, all, 1, MPI_INT, comm);
        CHECK(all[0] == 0 && all[3] == 3);
        MPI_Alltoall(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, all, 1, MPI_INT, comm);
        CHECK(all[0] == rank && all[3] == rank);
    }

    /* ================= nonblocking ================= */
    {
        MPI_Request rq[20];
        int n = 0;
        int bc[2] = {0, 0};
        int gin = rank, gall[4];
        int gvc[4] = {0, 1, 2, 3}, gvd[4] = {0, 0, 1, 3}, gvs[3] = {rank, rank, rank}, gvr[6];
        int scsrc[4] = {0, 1, 2, 3}, scgot = -1;
        int svc[4] = {2, 0, 1, 3}, svd[4] = {0, 2, 2, 3}, svsrc[6] = {0, 1, 2, 3, 4, 5}, svgot[3];
        int agall[4];
        int avc[4] = {0, 1, 2, 3}, avd[4] = {0, 0, 1, 3}, avv[6], avmine[3] = {rank, rank, rank};
        int a2s[4], a2r[4];
        int avsc[4], avsd[4], avs[4], avr[4];
        int aws[4], awr[4], awsc[4], awrc[4], awsd[4], awrd[4];
        MPI_Datatype awst[4], awrt[4];
        int red = rank + 1;
        affine af = rank_fn(rank), ag;
        int rsc[4] = {1, 0, 2, 1}, rss[4] = {0, 1, 2, 3}, rsr[2];
        int rbs[8], rbr[2];
        int scv = rank + 1, scr = 0, exv = rank + 1, exr = -1;

        if (rank == 0) { bc[0] = 5; bc[1] = 6; }
        MPI_Ibarrier(comm, &rq[n++]);
        MPI_Ibcast(bc, 2, MPI_INT, 0, comm, &rq[n++]);
        MPI_Ibcast(NULL, 0, MPI_INT, 1, comm, &rq[n++]);
        if (rank == 3) {
            gall[3] = 3;
            MPI_Igather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gall, 1, MPI_INT, 3, comm, &rq[n++]);
        } else {
            MPI_Igather(&gin, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 3, comm, &rq[n++]);
        }
        if (rank == 0)
            MPI_Igatherv(NULL, 0, MPI_INT, gvr, gvc, gvd, MPI_INT, 0, comm, &rq[n++]);
        else
            MPI_Igatherv(gvs, rank, MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, 0, comm, &rq[n++]);
        if (rank == 2)
            MPI_Iscatter(scsrc, 1, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 2, comm, &rq[n++]);
        else
            MPI_Iscatter(NULL, 0, MPI_DATATYPE_NULL, &scgot, 1, MPI_INT, 2, comm, &rq[n++]);
        if (rank == 3)
            MPI_Iscatterv(svsrc, svc, svd, MPI_INT, svgot, 3, MPI_INT, 3, comm, &rq[n++]);
        else
            MPI_Iscatterv(NULL, NULL, NULL, MPI_DATATYPE_NULL, rank == 1 ? NULL : svgot, svc[rank],
                          MPI_INT, 3, comm, &rq[n++]);
        agall[rank] = 200 + rank;
        MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, agall, 1, MPI_INT, comm, &rq[n++]);
        MPI_Iallgatherv(rank == 0 ? NULL : avmine, avc[rank], MPI_INT, avv, avc, avd, MPI_INT, comm, &rq[n++]);
        for (int j = 0; j < 4; j++) {
            a2s[j] = 10 * rank + j;
            avsc[j] = (rank == 0 || j == 0) ? 0 : 1;
            avsd[j] = j;
            avs[j] = 100 * rank + j;
            aws[j] = 1000 * rank + j;
            awsc[j] = j == 0 ? 0 : 1;
            awrc[j] = rank == 0 ? 0 : 1;
            awsd[j] = awrd[j] = j * (int)sizeof(int);
            awst[j] = awrt[j] = MPI_INT;
        }
        MPI_Ialltoall(a2s, 1, MPI_INT, a2r, 1, MPI_INT, comm, &rq[n++]);
        /* rank 0 exchanges nothing: NULL send buffer. (Its receive buffer is not
         * NULL too: MPICH 4.0.2 rejects two equal NULL pointers in Ialltoallv as
         * "Buffers must not be aliased", though nothing is accessed.) */
        MPI_Ialltoallv(rank == 0 ? NULL : avs, avsc, avsd, MPI_INT, avr, avsc, avsd,
                       MPI_INT, comm, &rq[n++]);
        MPI_Ialltoallw(aws, awsc, awsd, awst, awr, awrc, awrd, awrt, comm, &rq[n++]);
        if (rank == 1)
            MPI_Ireduce(MPI_IN_PLACE, &red, 1, MPI_INT, MPI_SUM, 1, comm, &rq[n++]);
        else
            MPI_Ireduce(&red, NULL, 1, MPI_INT, MPI_SUM, 1, comm, &rq[n++]);
        MPI_Iallreduce(&af, &ag, 1, t_aff, op_aff, comm, &rq[n++]);
        MPI_Ireduce_scatter(rss, rank == 1 ? NULL : rsr, rsc, MPI_INT, MPI_SUM, comm, &rq[n++]);
        for (int j = 0; j < 8; j++)
            rbs[j] = j;
        MPI_Ireduce_scatter_block(rbs, rbr, 2, MPI_INT, MPI_SUM, comm, &rq[n++]);
        MPI_Iscan(&scv, &scr, 1, MPI_INT, MPI_SUM, comm, &rq[n++]);
        MPI_Iexscan(&exv, rank == 0 ? EXSCAN_RANK0_RECVBUF : &exr, 1, MPI_INT, MPI_SUM, comm, &rq[n++]);

        /* complete: the first few with Waitany, some with a Test loop, the rest with Waitall */
        int idx;
        MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE);
        MPI_Waitany(n, rq, &idx, MPI_STATUS_IGNORE);
        int flag = 0;
        while (!flag)
            MPI_Test(&rq[n - 1], &flag, MPI_STATUS_IGNORE);
        MPI_Status sts[20];
        MPI_Waitall(n, rq, sts);

        affine e = expected_prefix(3);
        CHECK(bc[1] == 6);
        CHECK(rank != 3 || (gall[0] == 0 && gall[2] == 2));
        CHECK(rank != 0 || (gvr[0] == 1 && gvr[5] == 3));
        CHECK(rank == 2 || scgot == rank);
        CHECK(rank == 1 || svgot[0] == svd[rank]);
        CHECK(agall[0] == 200 && agall[3] == 203);
        CHECK(avv[0] == 1 && avv[5] == 3);
        CHECK(a2r[1] == 10 + rank);
        CHECK(rank == 0 || avr[3] == 300 + rank);
        CHECK(rank == 0 || awr[2] == 2000 + rank);
        CHECK(rank != 1 || red == 10);
        CHECK(ag.m == e.m && ag.c == e.c);
        CHECK(rank != 2 || (rsr[0] == 4 && rsr[1] == 8));
        CHECK(rbr[0] == 4 * 2 * rank);
        CHECK(scr == (rank + 1) * (rank + 2) / 2);
        CHECK(rank == 0 || exr == rank * (rank + 1) / 2);
    }

    /* nonblocking collectives on a duplicated communicator, completed by a Testall loop */
    {
        MPI_Comm dup;
        MPI_Comm_dup(comm, &dup);
        int x = rank, y[4];
        MPI_Request rq[2];
        MPI_Iallgather(&x, 1, MPI_INT, y, 1, MPI_INT, dup, &rq[0]);
        MPI_Ibarrier(dup, &rq[1]);
        int flag = 0;
        MPI_Status sts[2];
        while (!flag)
            MPI_Testall(2, rq, &flag, sts);
        CHECK(y[3] == 3);
        MPI_Comm_free(&dup);
    }

    MPI_Op_free(&op_aff);
    MPI_Type_free(&t_aff);
    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_collectives_all: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
