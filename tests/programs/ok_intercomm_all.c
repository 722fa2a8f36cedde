/* EXPECT: OK  NP: 4 */
/*
 * Checks: intercommunicators, used correctly; no finding expected.
 * Group A = world ranks {0, 1}, group B = world ranks {2, 3}.
 *
 *  - MPI_Intercomm_create: peer_comm and remote_leader are significant only
 *    at the local leader (sec. 7.6.2); the other processes pass
 *    MPI_COMM_NULL and -1.
 *  - Comm_test_inter, Comm_remote_size, Comm_remote_group (freed).
 *  - point-to-point: ranks name processes of the remote group.
 *  - rooted collectives with MPI_ROOT at the root, MPI_PROC_NULL at the other
 *    processes of the root group (their buffer arguments are insignificant:
 *    NULL buffers, 0 counts), and the root's rank in the remote group at the
 *    other group (Bcast, Gather, Gatherv, Scatter, Scatterv, Reduce, Ibcast,
 *    Igather); the receive arguments of the non-root group and the send
 *    arguments of the root are NULL / 0 / MPI_DATATYPE_NULL.
 *    (Open MPI 4.1 rejects MPI_DATATYPE_NULL at MPI_PROC_NULL processes and
 *    MPICH 4.0.2 a NULL sendbuf at the MPI_ROOT of MPI_Reduce, though neither is
 *    significant there: those spots pass MPI_INT / a dummy buffer.)
 *  - all-to-all collectives (Barrier, Allreduce, Allgather with a group that
 *    contributes 0 elements from a NULL buffer, Allgatherv, Alltoall,
 *    Alltoallv, Alltoallw, Reduce_scatter, Reduce_scatter_block, Ialltoall,
 *    Iallreduce, Ibarrier).
 *  - Comm_dup / Comm_idup / Comm_split of an intercommunicator, and
 *    Intercomm_merge.
 */
#include <mpi.h>
#include <stdio.h>

static int wrank, fails;
static int dummy;
#define REDUCE_ROOT_SENDBUF (&dummy)
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          wrank, __LINE__, #c); fails++; } } while (0)

int main(int argc, char **argv)
{
    int wsize;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize != 4)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int inA = wrank < 2;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, inA ? 0 : 1, wrank, &local);
    int lrank;
    MPI_Comm_rank(local, &lrank);
    /* leaders: world 0 (A) and world 2 (B); peer_comm only matters there */
    MPI_Intercomm_create(local, 0, lrank == 0 ? MPI_COMM_WORLD : MPI_COMM_NULL,
                         lrank == 0 ? (inA ? 2 : 0) : -1, 42, &inter);

    int flag, rsize;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(flag && rsize == 2);
    MPI_Group rg, lg;
    MPI_Comm_remote_group(inter, &rg);
    MPI_Comm_group(inter, &lg);
    {
        int r0 = 0, w;
        MPI_Group wg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_translate_ranks(rg, 1, &r0, wg, &w);
        CHECK(w == (inA ? 2 : 0));
        MPI_Group_free(&wg);
    }
    MPI_Group_free(&rg);
    MPI_Group_free(&lg);

    /* --- point-to-point with the partner of the same local rank */
    {
        int out = wrank, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, lrank, 1, &in, 1, MPI_INT, lrank, 1, inter, MPI_STATUS_IGNORE);
        CHECK(in == (inA ? wrank + 2 : wrank - 2));
        MPI_Request r[2];
        MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 2, inter, &r[0]);
        MPI_Isend(&out, 1, MPI_INT, 1 - lrank, 2, inter, &r[1]);
        MPI_Status sts[2];
        MPI_Waitall(2, r, sts);
        /* A's local rank l sent to B's rank 1 - l and vice versa */
        CHECK(in == (inA ? 3 - lrank : 1 - lrank));
    }

    MPI_Barrier(inter);

    /* root arguments: root process of group A is local rank 0 */
#define ROOT_A (inA ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0)
    /* root process of group B is local rank 1 */
#define ROOT_B (!inA ? (lrank == 1 ? MPI_ROOT : MPI_PROC_NULL) : 1)

    /* --- Bcast from A's leader to group B */
    {
        int v[2] = {0, 0};
        if (inA && lrank == 0) { v[0] = 7; v[1] = 8; }
        if (inA && lrank == 1)
            MPI_Bcast(NULL, 0, MPI_INT, MPI_PROC_NULL, inter);
        else
            MPI_Bcast(v, 2, MPI_INT, ROOT_A, inter);
        CHECK(inA || v[1] == 8);
    }

    /* --- Gather to B's local rank 1 from group A */
    {
        int mine = 100 + wrank, all[2] = {-1, -1};
        if (inA)
            MPI_Gather(&mine, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 1, inter);
        else if (lrank == 1) {
            MPI_Gather(NULL, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_ROOT, inter);
            CHECK(all[0] == 100 && all[1] == 101);
        } else
            MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, MPI_PROC_NULL, inter);
    }

    /* --- Gatherv to A's leader: B's rank 0 sends nothing (NULL), B's rank 1 two ints */
    {
        int mine[2] = {wrank, wrank}, all[2] = {-1, -1}, counts[2] = {0, 2}, displs[2] = {0, 0};
        if (!inA)
            MPI_Gatherv(lrank == 0 ? NULL : mine, lrank == 0 ? 0 : 2, MPI_INT, NULL, NULL, NULL,
                        MPI_DATATYPE_NULL, 0, inter);
        else if (lrank == 0) {
            MPI_Gatherv(NULL, 0, MPI_DATATYPE_NULL, all, counts, displs, MPI_INT, MPI_ROOT, inter);
            CHECK(all[0] == 3 && all[1] == 3);
        } else
            MPI_Gatherv(NULL, 0, MPI_INT, NULL, NULL, NULL, MPI_INT, MPI_PROC_NULL, inter);
    }

    /* --- Scatter from B's local rank 1 to group A; Scatterv from A's leader to B */
    {
        int src[2] = {50, 51}, got = -1;
        if (inA) {
            MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, &got, 1, MPI_INT, 1, inter);
            CHECK(got == 50 + lrank);
        } else
            MPI_Scatter(lrank == 1 ? src : NULL, lrank == 1 ? 1 : 0, MPI_INT,
                        NULL, 0, MPI_DATATYPE_NULL, ROOT_B, inter);

        int vsrc[3] = {60, 61, 62}, counts[2] = {1, 2}, displs[2] = {0, 1}, vgot[2] = {-1, -1};
        if (!inA) {
            MPI_Scatterv(NULL, NULL, NULL, MPI_DATATYPE_NULL, vgot, lrank + 1, MPI_INT, 0, inter);
            CHECK(vgot[0] == (lrank == 0 ? 60 : 61));
        } else if (lrank == 0)
            MPI_Scatterv(vsrc, counts, displs, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, MPI_ROOT, inter);
        else
            MPI_Scatterv(NULL, NULL, NULL, MPI_INT, NULL, 0, MPI_INT, MPI_PROC_NULL, inter);
    }

    /* --- Reduce from group B to A's leader */
    {
        int v = wrank, s = -1;
        if (!inA)
            MPI_Reduce(&v, NULL, 1, MPI_INT, MPI_SUM, 0, inter);
        else if (lrank == 0) {
            MPI_Reduce(REDUCE_ROOT_SENDBUF, &s, 1, MPI_INT, MPI_SUM, MPI_ROOT, inter);
            CHECK(s == 5);
        } else
            MPI_Reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, MPI_PROC_NULL, inter);
    }

    /* --- all-to-all kinds */
    {
        int v = wrank, s;
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, inter);
        CHECK(s == (inA ? 5 : 1));      /* the remote group's sum */

        /* Allgather: A contributes 1 int each, B contributes nothing (NULL, 0) */
        int ag[2] = {-1, -1};
        if (inA)
            MPI_Allgather(&v, 1, MPI_INT, NULL, 0, MPI_INT, inter);
        else {
            MPI_Allgather(NULL, 0, MPI_INT, ag, 1, MPI_INT, inter);
            CHECK(ag[0] == 0 && ag[1] == 1);
        }

        int agv[3] = {-1, -1, -1}, cnt[2] = {1, 2}, dsp[2] = {0, 1}, two[2] = {wrank, wrank};
        MPI_Allgatherv(two, lrank + 1, MPI_INT, agv, cnt, dsp, MPI_INT, inter);
        CHECK(agv[0] == (inA ? 2 : 0) && agv[2] == (inA ? 3 : 1));

        int a2s[2] = {10 * wrank, 10 * wrank + 1}, a2r[2];
        MPI_Alltoall(a2s, 1, MPI_INT, a2r, 1, MPI_INT, inter);
        CHECK(a2r[1] == 10 * (inA ? 3 : 1) + lrank);

        int sc[2] = {1, 1}, sd[2] = {0, 1}, a2vr[2] = {-1, -1};
        MPI_Alltoallv(a2s, sc, sd, MPI_INT, a2vr, sc, sd, MPI_INT, inter);
        CHECK(a2vr[0] == a2r[0] && a2vr[1] == a2r[1]);

        int wsd[2] = {0, sizeof(int)}, a2wr[2] = {-1, -1};
        MPI_Datatype wt[2] = {MPI_INT, MPI_INT};
        MPI_Alltoallw(a2s, sc, wsd, wt, a2wr, sc, wsd, wt, inter);
        CHECK(a2wr[1] == a2r[1]);

        int rs_in[2] = {wrank, 10 * wrank}, rs_out = -1, rcounts[2] = {1, 1};
        MPI_Reduce_scatter(rs_in, &rs_out, rcounts, MPI_INT, MPI_SUM, inter);
        CHECK(rs_out == (inA ? (lrank == 0 ? 5 : 50) : (lrank == 0 ? 1 : 10)));
        rs_out = -1;
        MPI_Reduce_scatter_block(rs_in, &rs_out, 1, MPI_INT, MPI_SUM, inter);
        CHECK(rs_out == (inA ? (lrank == 0 ? 5 : 50) : (lrank == 0 ? 1 : 10)));
    }

    /* --- nonblocking. The rooted ones run on their own duplicates: in Open MPI
     * 4.1.4 a nonblocking rooted collective at an MPI_PROC_NULL process of an
     * intercommunicator desynchronizes the later nonblocking collectives on the
     * same communicator (MPI_ERR_TRUNCATE, without mpicheck too). */
    {
        MPI_Comm nb1, nb2;
        MPI_Comm_dup(inter, &nb1);
        MPI_Comm_dup(inter, &nb2);
        MPI_Request r[5];
        int b = (inA && lrank == 0) ? 9 : 0, gmine = wrank, gall[2] = {-1, -1};
        int as[2] = {wrank, wrank}, ar[2], v = 1, s = 0;
        if (inA && lrank == 1)
            MPI_Ibcast(NULL, 0, MPI_INT, MPI_PROC_NULL, nb1, &r[0]);
        else
            MPI_Ibcast(&b, 1, MPI_INT, ROOT_A, nb1, &r[0]);
        if (inA)
            MPI_Igather(&gmine, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 1, nb2, &r[1]);
        else
            MPI_Igather(NULL, 0, MPI_INT, lrank == 1 ? gall : NULL, lrank == 1 ? 1 : 0,
                        MPI_INT, ROOT_B, nb2, &r[1]);
        MPI_Ialltoall(as, 1, MPI_INT, ar, 1, MPI_INT, inter, &r[2]);
        MPI_Iallreduce(&v, &s, 1, MPI_INT, MPI_SUM, inter, &r[3]);
        MPI_Ibarrier(inter, &r[4]);
        MPI_Status sts[5];
        MPI_Waitall(5, r, sts);
        CHECK(inA || b == 9);
        CHECK(inA || lrank == 0 || (gall[0] == 0 && gall[1] == 1));
        CHECK(ar[0] == (inA ? 2 : 0) && s == 2);
        MPI_Comm_free(&nb1);
        MPI_Comm_free(&nb2);
    }

    /* --- dup, idup, split of the intercommunicator; merge */
    {
        MPI_Comm d, di, sp, merged;
        MPI_Request r;
        MPI_Comm_dup(inter, &d);
        MPI_Comm_idup(inter, &di, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        int x = 1, y = 0;
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, d);
        CHECK(y == 2);
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, di);
        CHECK(y == 2);
        /* each local rank forms a 1-to-1 intercommunicator with its partner */
        MPI_Comm_split(inter, lrank, 0, &sp);
        int rs;
        MPI_Comm_remote_size(sp, &rs);
        CHECK(rs == 1);
        int out = wrank, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, 0, 3, &in, 1, MPI_INT, 0, 3, sp, MPI_STATUS_IGNORE);
        CHECK(in == (inA ? wrank + 2 : wrank - 2));
        MPI_Intercomm_merge(inter, inA ? 0 : 1, &merged);   /* A low, B high */
        int mr;
        MPI_Comm_rank(merged, &mr);
        CHECK(mr == wrank);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&sp);
        MPI_Comm_free(&di);
        MPI_Comm_free(&d);
    }

    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0 && total)
        printf("ok_intercomm_all: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
