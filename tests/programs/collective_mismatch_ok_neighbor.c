/* EXPECT: OK  NP: 4 */
/*
 * Checks: a correct program using neighborhood collectives where a checker
 * that compared counts across members (a min/max over the communicator, as
 * for MPI_Allgather) would report false mismatches; no finding expected.
 *
 *  - a 2-D Cartesian grid, 2 x 2, periodic in dimension 0 (of size 2: both
 *    neighbors there are the same process) and not in dimension 1
 *    (MPI_PROC_NULL neighbors): MPI_Neighbor_allgather and
 *    MPI_Neighbor_alltoall, blocking and nonblocking; MPI_Cart_sub of it;
 *  - a periodic ring of 4 where each rank sends a different amount each way
 *    and the amounts differ from rank to rank (MPI_Neighbor_alltoallv and
 *    MPI_Ineighbor_alltoallv); MPI_Comm_idup of the ring and a neighbor
 *    collective on the copy;
 *  - a non-periodic line of 4 with MPI_Neighbor_alltoallw whose send type
 *    (contiguous(2, MPI_INT)) differs as a handle from the receive side's
 *    2 x MPI_INT but has the same type signature;
 *  - a distributed graph (MPI_Dist_graph_create_adjacent) whose in- and
 *    out-neighbor lists differ (0 -> 1, 0 -> 2, 1 -> 2, 1 -> 3, 2 -> 3,
 *    2 -> 0, 3 -> 0; in-lists given in no sorted order) with a different
 *    count on each edge: MPI_Neighbor_alltoallv, MPI_Neighbor_alltoallw
 *    (types per edge, and an edge of count 0 whose two ends name different
 *    types: nothing moves, so nothing must match), MPI_Neighbor_allgatherv
 *    (each rank sends rank + 1 ints), MPI_Neighbor_allgather, their
 *    nonblocking forms, the persistent MPI_Neighbor_alltoallv_init where
 *    the library has it (MPI 4.0), and the same on an MPI_Comm_dup of it;
 *  - MPI_Dist_graph_create (neighbor order chosen by the library, read back
 *    with MPI_Dist_graph_neighbors) with different counts per edge;
 *  - MPI_Graph_create (a ring) with MPI_Neighbor_allgatherv;
 *  - MPI_Reduce_local, called by rank 0 only between two collectives: it is
 *    local (MPI-3.1 sec. 5.9.7), not collective, and takes no communicator;
 *  - MPI_Win_allocate_shared on the MPI_COMM_TYPE_SHARED communicator, a
 *    different size at each rank (allowed: sizes are per process, sec.
 *    11.2.3), read through MPI_Win_shared_query.
 * Every received value is checked.
 *
 * Why it is correct: in a neighborhood collective the type signature of
 * what process i sends along an edge must equal the signature of what the
 * process at its other end receives along it (MPI-3.1 sec. 7.6, 7.6.1,
 * 7.6.2; MPI-4.0 sec. 8.6): a rule per edge, not across the communicator.
 * Members may give different counts, and a Dist_graph's in- and
 * out-neighbors need not be the same processes. Every edge here agrees at
 * both ends. Where two edges join the same two processes (the periodic
 * dimension of size 2), every part along them has the same size, so which
 * send meets which receive does not matter (libraries differ there).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPI_UNWEIGHTED is a small non-NULL pointer constant: gcc's array-bound
 * warnings on it are noise. */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int rank, size;

static void fail(const char *what, int line)
{
    fprintf(stderr, "TEST FAILED: rank %d: %s (line %d)\n", rank, what, line);
    MPI_Abort(MPI_COMM_WORLD, 1);
}
#define CHECK(c) do { if (!(c)) fail(#c, __LINE__); } while (0)

/* ---- Cartesian ----------------------------------------------------------- */

static void cart_grid(void)
{
    int dims[2] = {2, 2}, periods[2] = {1, 0}, src[4], r;
    MPI_Comm grid, row;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Comm_rank(grid, &r);
    for (int d = 0; d < 2; d++)
        MPI_Cart_shift(grid, d, 1, &src[2 * d], &src[2 * d + 1]);
    CHECK(src[0] == src[1] && src[0] != MPI_PROC_NULL);             /* periodic, size 2 */
    CHECK(src[2] == MPI_PROC_NULL || src[3] == MPI_PROC_NULL);      /* not periodic */

    int sb[2] = {r, r * 10}, rb[8];
    for (int i = 0; i < 8; i++) rb[i] = -1;
    MPI_Neighbor_allgather(sb, 2, MPI_INT, rb, 2, MPI_INT, grid);
    for (int k = 0; k < 4; k++)
        CHECK(src[k] == MPI_PROC_NULL ? rb[2 * k] == -1 : rb[2 * k] == src[k] && rb[2 * k + 1] == src[k] * 10);

    int ab[4], ar[4];
    for (int k = 0; k < 4; k++) { ab[k] = r * 100 + k; ar[k] = -1; }
    MPI_Neighbor_alltoall(ab, 1, MPI_INT, ar, 1, MPI_INT, grid);
    for (int k = 0; k < 4; k++)     /* which block comes is the library's choice on the size-2 dimension */
        CHECK(src[k] == MPI_PROC_NULL ? ar[k] == -1 : ar[k] / 100 == src[k]);

    MPI_Request q[2];
    int rb2[8], ar2[4];
    for (int i = 0; i < 8; i++) rb2[i] = -1;
    for (int k = 0; k < 4; k++) ar2[k] = -1;
    MPI_Ineighbor_allgather(sb, 2, MPI_INT, rb2, 2, MPI_INT, grid, &q[0]);
    MPI_Ineighbor_alltoall(ab, 1, MPI_INT, ar2, 1, MPI_INT, grid, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 4; k++) {
        CHECK(src[k] == MPI_PROC_NULL ? rb2[2 * k] == -1 : rb2[2 * k] == src[k]);
        CHECK(src[k] == MPI_PROC_NULL ? ar2[k] == -1 : ar2[k] / 100 == src[k]);
    }

    /* a row of the grid: 1-D, not periodic, 2 processes */
    int remain[2] = {0, 1};
    MPI_Cart_sub(grid, remain, &row);
    int rs, rsrc[2], rr[2] = {-1, -1};
    MPI_Comm_rank(row, &rs);
    MPI_Cart_shift(row, 0, 1, &rsrc[0], &rsrc[1]);
    MPI_Neighbor_allgather(&rs, 1, MPI_INT, rr, 1, MPI_INT, row);
    for (int k = 0; k < 2; k++)
        CHECK(rsrc[k] == MPI_PROC_NULL ? rr[k] == -1 : rr[k] == rsrc[k]);
    MPI_Comm_free(&row);
    MPI_Comm_free(&grid);
}

/* A periodic ring: rank r sends 1 int to its left neighbor and r + 1 ints to
 * its right one; it receives left + 1 ints from the left, 1 from the right. */
static void ring_alltoallv(MPI_Comm ring, int blocking)
{
    int r, left, right;
    MPI_Comm_rank(ring, &r);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    int sb[8], sc[2] = {1, r + 1}, sd[2] = {0, 1};
    for (int i = 0; i < 8; i++) sb[i] = r;
    int rb[8], rc[2] = {left + 1, 1}, rd[2] = {0, left + 1};
    for (int i = 0; i < 8; i++) rb[i] = -1;
    if (blocking) {
        MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, ring);
    } else {
        MPI_Request q;
        MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, ring, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < left + 1; i++)
        CHECK(rb[i] == left);
    CHECK(rb[left + 1] == right);
}

static void cart_ring_and_line(void)
{
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm ring, ring2, line;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    ring_alltoallv(ring, 1);
    ring_alltoallv(ring, 0);
    /* a nonblocking copy: same topology */
    MPI_Request q;
    MPI_Comm_idup(ring, &ring2, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    ring_alltoallv(ring2, 1);
    MPI_Comm_free(&ring2);
    MPI_Comm_free(&ring);

    /* a line: contiguous(2, MPI_INT) x 1 against 2 x MPI_INT */
    periods[0] = 0;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
    int r, nb[2];
    MPI_Comm_rank(line, &r);
    MPI_Cart_shift(line, 0, 1, &nb[0], &nb[1]);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int sb[4] = {r, r, r, r}, rb[4] = {-1, -1, -1, -1};
    int sc[2] = {1, 1}, rc[2] = {2, 2};
    MPI_Aint sd[2] = {0, 2 * sizeof(int)}, rd[2] = {0, 2 * sizeof(int)};
    MPI_Datatype st[2] = {pair, pair}, rt[2] = {MPI_INT, MPI_INT};
    MPI_Neighbor_alltoallw(sb, sc, sd, st, rb, rc, rd, rt, line);
    for (int k = 0; k < 2; k++)
        CHECK(nb[k] == MPI_PROC_NULL ? rb[2 * k] == -1 : rb[2 * k] == nb[k] && rb[2 * k + 1] == nb[k]);
    MPI_Type_free(&pair);
    MPI_Comm_free(&line);
}

/* ---- distributed graphs -------------------------------------------------- */

/* Ints sent along the edge i -> j (0 for 3 -> 0). */
static int edge_count(int i, int j)
{
    if (i == 3 && j == 0)
        return 0;
    return (i + 2 * j) % 3 + 1;
}

static void dist_exchanges(MPI_Comm dg, int indeg, const int *in, int outdeg, const int *out)
{
    int sc[4], sd[4], rc[4], rd[4], sb[64], rb[64], st = 0, rt = 0;
    for (int k = 0; k < outdeg; k++) { sc[k] = edge_count(rank, out[k]); sd[k] = st; st += sc[k]; }
    for (int k = 0; k < indeg; k++) { rc[k] = edge_count(in[k], rank); rd[k] = rt; rt += rc[k]; }
    for (int k = 0; k < outdeg; k++)
        for (int i = 0; i < sc[k]; i++) sb[sd[k] + i] = rank * 1000 + out[k];
#define CHECK_V(buf)                                                        \
    for (int k = 0; k < indeg; k++)                                         \
        for (int i = 0; i < rc[k]; i++) CHECK((buf)[rd[k] + i] == in[k] * 1000 + rank)

    memset(rb, 0xff, sizeof rb);
    MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, dg);
    CHECK_V(rb);

    /* w: per edge types; an even count goes as pairs; the edge of count 0
     * names MPI_DOUBLE at the sender and MPI_INT at the receiver */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int wc[4];
    MPI_Aint wsd[4], wrd[4];
    MPI_Datatype wst[4], wrt[4];
    for (int k = 0; k < outdeg; k++) {
        wsd[k] = (MPI_Aint)sd[k] * (MPI_Aint)sizeof(int);
        if (sc[k] == 0) { wc[k] = 0; wst[k] = MPI_DOUBLE; }
        else if (sc[k] % 2 == 0) { wc[k] = sc[k] / 2; wst[k] = pair; }
        else { wc[k] = sc[k]; wst[k] = MPI_INT; }
    }
    for (int k = 0; k < indeg; k++) { wrd[k] = (MPI_Aint)rd[k] * (MPI_Aint)sizeof(int); wrt[k] = MPI_INT; }
    memset(rb, 0xff, sizeof rb);
    MPI_Neighbor_alltoallw(sb, wc, wsd, wst, rb, rc, wrd, wrt, dg);
    CHECK_V(rb);

    /* allgatherv: rank + 1 ints to every out-neighbor */
    int ag[8], agc[4], agd[4], tot = 0, agr[64];
    for (int i = 0; i <= rank; i++) ag[i] = rank;
    for (int k = 0; k < indeg; k++) { agc[k] = in[k] + 1; agd[k] = tot; tot += agc[k]; }
    memset(agr, 0xff, sizeof agr);
    MPI_Neighbor_allgatherv(ag, rank + 1, MPI_INT, agr, agc, agd, MPI_INT, dg);
    for (int k = 0; k < indeg; k++)
        for (int i = 0; i < agc[k]; i++) CHECK(agr[agd[k] + i] == in[k]);
    int one[4];
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, one, 1, MPI_INT, dg);
    for (int k = 0; k < indeg; k++) CHECK(one[k] == in[k]);

    /* nonblocking forms, together */
    MPI_Request q[3];
    int rb2[64], rb3[64], agr2[64];
    memset(rb2, 0xff, sizeof rb2);
    memset(rb3, 0xff, sizeof rb3);
    memset(agr2, 0xff, sizeof agr2);
    MPI_Ineighbor_alltoallv(sb, sc, sd, MPI_INT, rb2, rc, rd, MPI_INT, dg, &q[0]);
    MPI_Ineighbor_alltoallw(sb, wc, wsd, wst, rb3, rc, wrd, wrt, dg, &q[1]);
    MPI_Ineighbor_allgatherv(ag, rank + 1, MPI_INT, agr2, agc, agd, MPI_INT, dg, &q[2]);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    CHECK_V(rb2);
    CHECK_V(rb3);
    for (int k = 0; k < indeg; k++)
        for (int i = 0; i < agc[k]; i++) CHECK(agr2[agd[k] + i] == in[k]);

#if MPI_VERSION >= 4
    /* persistent, started twice */
    MPI_Request p;
    MPI_Neighbor_alltoallv_init(sb, sc, sd, MPI_INT, rb2, rc, rd, MPI_INT, dg, MPI_INFO_NULL, &p);
    for (int it = 0; it < 2; it++) {
        memset(rb2, 0xff, sizeof rb2);
        MPI_Start(&p);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
        CHECK_V(rb2);
    }
    MPI_Request_free(&p);
#endif
#undef CHECK_V
    MPI_Type_free(&pair);
}

static void dist_graphs(void)
{
    /* out-lists and in-lists of 0 -> 1, 0 -> 2, 1 -> 2, 1 -> 3, 2 -> 3, 2 -> 0, 3 -> 0 */
    static const int outs[4][2] = {{1, 2}, {2, 3}, {3, 0}, {0, -1}};
    static const int outdegs[4] = {2, 2, 2, 1};
    static const int ins[4][2] = {{3, 2}, {0, -1}, {1, 0}, {2, 1}};
    static const int indegs[4] = {2, 1, 2, 2};
    MPI_Comm dg, dgdup, dg2;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indegs[rank], ins[rank], MPI_UNWEIGHTED,
                                   outdegs[rank], outs[rank], MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
    dist_exchanges(dg, indegs[rank], ins[rank], outdegs[rank], outs[rank]);
    MPI_Comm_dup(dg, &dgdup);
    dist_exchanges(dgdup, indegs[rank], ins[rank], outdegs[rank], outs[rank]);
    MPI_Comm_free(&dgdup);
    MPI_Comm_free(&dg);

    /* non-adjacent form: r -> r + 1 and r -> r + 2; the library orders the
     * neighbors, MPI_Dist_graph_neighbors tells how */
    int me[1] = {rank}, deg[1] = {2}, to[2] = {(rank + 1) % size, (rank + 2) % size};
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, deg, to, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg2);
    int indeg, outdeg, weighted, in[2], out[2], iw[2], ow[2];
    MPI_Dist_graph_neighbors_count(dg2, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 2);
    MPI_Dist_graph_neighbors(dg2, 2, in, iw, 2, out, ow);
    int sc[2], sd[2], rc[2], rd[2], sb[4], rb[4] = {-1, -1, -1, -1};
    for (int k = 0; k < 2; k++) {
        sc[k] = (out[k] - rank + size) % size;      /* 1 or 2 ints */
        sd[k] = k ? sc[0] : 0;
        rc[k] = (rank - in[k] + size) % size;
        rd[k] = k ? rc[0] : 0;
    }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < sc[k]; i++) sb[sd[k] + i] = rank;
    MPI_Neighbor_alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, dg2);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < rc[k]; i++) CHECK(rb[rd[k] + i] == in[k]);
    MPI_Comm_free(&dg2);
}

/* ---- graph ---------------------------------------------------------------- */

static void graph_ring(void)
{
    int index[4] = {2, 4, 6, 8}, edges[8] = {1, 3, 0, 2, 1, 3, 2, 0}, nbrs[2];
    MPI_Comm g;
    MPI_Graph_create(MPI_COMM_WORLD, 4, index, edges, 0, &g);
    MPI_Graph_neighbors(g, rank, 2, nbrs);
    int sb[4], rc[2], rd[2], rb[8];
    for (int i = 0; i <= rank; i++) sb[i] = rank;
    for (int k = 0; k < 2; k++) { rc[k] = nbrs[k] + 1; rd[k] = k ? rc[0] : 0; }
    MPI_Neighbor_allgatherv(sb, rank + 1, MPI_INT, rb, rc, rd, MPI_INT, g);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < rc[k]; i++) CHECK(rb[rd[k] + i] == nbrs[k]);
    MPI_Comm_free(&g);
}

/* ---- not collective, and a shared-memory window --------------------------- */

static void local_and_shared(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
        MPI_Reduce_local(a, b, 3, MPI_INT, MPI_SUM);
        CHECK(b[0] == 11 && b[2] == 33);
    }
    int s = 1, t = 0;
    MPI_Allreduce(&s, &t, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(t == size);

    MPI_Comm shm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    int sr;
    MPI_Comm_rank(shm, &sr);
    int *mine;
    MPI_Win win;
    MPI_Win_allocate_shared((MPI_Aint)((sr + 1) * sizeof(int)), sizeof(int), MPI_INFO_NULL, shm, &mine, &win);
    MPI_Win_fence(0, win);
    for (int i = 0; i <= sr; i++) mine[i] = sr * 10 + i;
    MPI_Win_fence(0, win);
    MPI_Aint sz;
    int du, *first;
    MPI_Win_shared_query(win, 0, &sz, &du, &first);
    CHECK(sz == (MPI_Aint)sizeof(int) && first[0] == 0);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Comm_free(&shm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4)
        fail("needs 4 processes", __LINE__);
    cart_grid();
    cart_ring_and_line();
    dist_graphs();
    graph_ring();
    local_and_shared();
    MPI_Finalize();
    return 0;
}
