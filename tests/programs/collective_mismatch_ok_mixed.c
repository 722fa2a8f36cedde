/* EXPECT: OK  NP: 4 */
/*
 * Checks: a correct program mixing many collectives on MPI_COMM_WORLD, on a
 * communicator split in two halves and on a duplicate, with the cases a
 * handle-comparing checker gets wrong:
 * - types that differ as handles but match by signature: MPI_Bcast of
 *   contiguous(2, MPI_INT) at the root against 2 x MPI_INT elsewhere;
 *   MPI_Allreduce of MPI_2INT with MPI_MAXLOC;
 * - MPI_IN_PLACE everywhere in MPI_Allreduce and MPI_Allgather, at the root
 *   in MPI_Gather, MPI_Scatter(recvbuf) and MPI_Reduce;
 * - zero counts, a user-defined operation (MPI_Op_create), MPI_PACKED
 *   against the bytes MPI_Pack produced;
 * - irregular MPI_Gatherv / MPI_Scatterv / MPI_Allgatherv / MPI_Alltoallv
 *   counts, MPI_Reduce_scatter and MPI_Reduce_scatter_block, MPI_Scan,
 *   MPI_Exscan; nonblocking forms completed with MPI_Waitall.
 * Every result is checked.
 *
 * Why it is correct: every collective is called by all members of its
 * communicator in the same order with matching signatures (MPI-3.1 ch. 5).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void fail(const char *what, int line)
{
    fprintf(stderr, "TEST FAILED: rank %d: %s (line %d)\n", rank, what, line);
    MPI_Abort(MPI_COMM_WORLD, 1);
}
#define CHECK(c) do { if (!(c)) fail(#c, __LINE__); } while (0)

static void my_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void on(MPI_Comm comm)
{
    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int b[2] = {0, 0};
    if (r == 0) { b[0] = 5; b[1] = 6; MPI_Bcast(b, 1, pair, 0, comm); }
    else MPI_Bcast(b, 2, MPI_INT, 0, comm);
    CHECK(b[0] == 5 && b[1] == 6);
    struct { int v, i; } in = {r * 10, r}, out;
    MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, comm);
    CHECK(out.v == (n - 1) * 10 && out.i == n - 1);
    int s = r + 1;
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, comm);
    CHECK(s == n * (n + 1) / 2);
    int all[8];
    all[r] = r * 3;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, comm);
    for (int i = 0; i < n; i++) CHECK(all[i] == i * 3);
    int g[8] = {0}, mine = r + 100;
    if (r == 0) { g[0] = mine; MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, g, 1, MPI_INT, 0, comm); }
    else MPI_Gather(&mine, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, 0, comm);
    if (r == 0) for (int i = 0; i < n; i++) CHECK(g[i] == i + 100);
    int sc[8], got = -1;
    for (int i = 0; i < n; i++) sc[i] = i * 7;
    if (r == 0) MPI_Scatter(sc, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, comm);
    else MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, &got, 1, MPI_INT, 0, comm);
    if (r) CHECK(got == r * 7);
    int red = r;
    if (r == 0) MPI_Reduce(MPI_IN_PLACE, &red, 1, MPI_INT, MPI_SUM, 0, comm);
    else MPI_Reduce(&red, NULL, 1, MPI_INT, MPI_SUM, 0, comm);
    if (r == 0) CHECK(red == n * (n - 1) / 2);
    /* zero counts, with different types (nothing is sent) */
    MPI_Bcast(b, 0, r ? MPI_DOUBLE : MPI_INT, 0, comm);
    /* user op */
    MPI_Op op;
    MPI_Op_create(my_sum, 1, &op);
    int u = 2, uo = 0;
    MPI_Allreduce(&u, &uo, 1, MPI_INT, op, comm);
    CHECK(uo == 2 * n);
    MPI_Op_free(&op);
    /* MPI_PACKED against what MPI_Pack made */
    char pk[64];
    int pos = 0, pv[2] = {r, 9};
    MPI_Pack(pv, 2, MPI_INT, pk, sizeof pk, &pos, comm);
    int psize = pos;
    MPI_Bcast(&psize, 1, MPI_INT, 0, comm);
    MPI_Bcast(pk, psize, MPI_PACKED, 0, comm);
    pos = 0;
    MPI_Unpack(pk, psize, &pos, pv, 2, MPI_INT, comm);
    CHECK(pv[0] == 0 && pv[1] == 9);
    /* v-variants with irregular counts: rank i gives i + 1 ints */
    int cnt[8], dsp[8], tot = 0;
    for (int i = 0; i < n; i++) { cnt[i] = i + 1; dsp[i] = tot; tot += i + 1; }
    int vs[8], vr[64];
    for (int i = 0; i <= r; i++) vs[i] = r;
    MPI_Gatherv(vs, r + 1, MPI_INT, vr, cnt, dsp, MPI_INT, 0, comm);
    if (r == 0) for (int i = 0; i < n; i++) CHECK(vr[dsp[i]] == i);
    MPI_Allgatherv(vs, r + 1, MPI_INT, vr, cnt, dsp, MPI_INT, comm);
    for (int i = 0; i < n; i++) CHECK(vr[dsp[i] + i] == i);
    int vrecv[8];
    MPI_Scatterv(vr, cnt, dsp, MPI_INT, vrecv, r + 1, MPI_INT, 0, comm);
    CHECK(vrecv[r] == r);
    int a2s[8], a2r[8], ac[8], ad[8];
    for (int i = 0; i < n; i++) { a2s[i] = r * 100 + i; ac[i] = 1; ad[i] = i; }
    MPI_Alltoallv(a2s, ac, ad, MPI_INT, a2r, ac, ad, MPI_INT, comm);
    for (int i = 0; i < n; i++) CHECK(a2r[i] == i * 100 + r);
    int rs[8], rsr[8];
    for (int i = 0; i < n * 2; i++) rs[i] = 1;
    int rc2[8];
    for (int i = 0; i < n; i++) rc2[i] = 2;
    MPI_Reduce_scatter(rs, rsr, rc2, MPI_INT, MPI_SUM, comm);
    CHECK(rsr[0] == n && rsr[1] == n);
    MPI_Reduce_scatter_block(rs, rsr, 2, MPI_INT, MPI_SUM, comm);
    CHECK(rsr[0] == n);
    int sv = 1, so = 0;
    MPI_Scan(&sv, &so, 1, MPI_INT, MPI_SUM, comm);
    CHECK(so == r + 1);
    so = -1;
    MPI_Exscan(&sv, &so, 1, MPI_INT, MPI_SUM, comm);
    if (r) CHECK(so == r);
    /* nonblocking forms */
    MPI_Request q[3];
    int nb = r == 0 ? 42 : 0, ns = 1, nso = 0;
    MPI_Ibcast(&nb, 1, MPI_INT, 0, comm, &q[0]);
    MPI_Iallreduce(&ns, &nso, 1, MPI_INT, MPI_SUM, comm, &q[1]);
    MPI_Ibarrier(comm, &q[2]);
    MPI_Status qs[3];
    MPI_Waitall(3, q, qs);
    CHECK(nb == 42 && nso == n);
    MPI_Type_free(&pair);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm half, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    on(MPI_COMM_WORLD);
    on(half);
    on(dup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
