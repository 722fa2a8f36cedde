/*
 * test_typesig.c - src/match/typesig.c against the real MPI library, run as
 * an MPI singleton (no mpirun; Open MPI as root needs
 * OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1). Every datatype
 * constructor, the pair types, nesting, equivalences between differently
 * built types, the receiver's verdicts, and the cache across MPI_Type_free
 * and handle reuse.
 *
 * Check runs the tests without fork: MPI is initialized once, in main.
 */
#include <check.h>
#include "run_suite.h"
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "typesig.h"
#include "typecache.h"

static mc_sig sig(MPI_Datatype t)
{
    mc_sig s;
    ck_assert_int_eq(mc_typesig_get(t, &s), 0);
    return s;
}

/* Asserts the signature of t is exactly these (id, n) runs, ended by -1. */
#define ck_runs(t, ...) do { \
        const long want_[] = { __VA_ARGS__, -1 }; \
        mc_sig s_ = sig(t); \
        uint32_t i_ = 0; \
        for (; want_[2 * i_] >= 0; i_++) { \
            ck_assert_uint_gt(s_.nruns, i_); \
            ck_assert_str_eq(mc_sig_id_name(s_.runs[i_].id), mc_sig_id_name((unsigned)want_[2 * i_])); \
            ck_assert_uint_eq(s_.runs[i_].n, (uint64_t)want_[2 * i_ + 1]); \
        } \
        ck_assert_uint_eq(s_.nruns, i_); \
        mc_sig_free(&s_); \
    } while (0)

static mc_sig_result cmp(MPI_Datatype st, uint64_t sc, MPI_Datatype rt, uint64_t rc)
{
    mc_sig_msg m;
    mc_sig_result r;
    ck_assert_int_eq(mc_typesig_msg(st, sc, &m), 0);
    mc_typesig_compare(&m, rt, rc, 0, &r);
    return r;
}

static MPI_Datatype committed(MPI_Datatype t)
{
    MPI_Type_commit(&t);
    return t;
}

static void drop(MPI_Datatype *t)
{
    mc_typesig_forget(*t);      /* what the MPI_Type_free wrapper will do */
    MPI_Type_free(t);
}

START_TEST(test_predefined)
{
    ck_runs(MPI_INT, MC_T_INT, 1);
    ck_runs(MPI_DOUBLE, MC_T_DOUBLE, 1);
    ck_runs(MPI_BYTE, MC_T_BYTE, 1);
    ck_runs(MPI_PACKED, MC_T_PACKED, 1);
    ck_runs(MPI_LONG_LONG, MC_T_LONG_LONG, 1);
    ck_runs(MPI_C_COMPLEX, MC_T_C_FLOAT_COMPLEX, 1);
    ck_runs(MPI_INTEGER, MC_T_INTEGER, 1);
    mc_sig s = sig(MPI_DOUBLE);
    ck_assert_uint_eq(s.size, sizeof(double));
    mc_sig_free(&s);
    ck_assert_uint_eq(mc_typesig_cached(), 0);   /* predefined types are not cached */
}
END_TEST

START_TEST(test_pairs)
{
    ck_runs(MPI_2INT, MC_T_INT, 2);
    ck_runs(MPI_FLOAT_INT, MC_T_FLOAT, 1, MC_T_INT, 1);
    ck_runs(MPI_DOUBLE_INT, MC_T_DOUBLE, 1, MC_T_INT, 1);
    ck_runs(MPI_LONG_INT, MC_T_LONG, 1, MC_T_INT, 1);
    ck_runs(MPI_SHORT_INT, MC_T_SHORT, 1, MC_T_INT, 1);
    ck_runs(MPI_LONG_DOUBLE_INT, MC_T_LONG_DOUBLE, 1, MC_T_INT, 1);
    ck_runs(MPI_2REAL, MC_T_REAL, 2);
    ck_runs(MPI_2DOUBLE_PRECISION, MC_T_DOUBLE_PRECISION, 2);
    ck_runs(MPI_2INTEGER, MC_T_INTEGER, 2);
    mc_sig s = sig(MPI_SHORT_INT);
    ck_assert_uint_eq(s.size, sizeof(short) + sizeof(int));   /* size, not extent */
    mc_sig_free(&s);
    /* contiguous(2, MPI_2INT) = 4 MPI_INT = 2 MPI_2INT. */
    MPI_Datatype c;
    MPI_Type_contiguous(2, MPI_2INT, &c);
    c = committed(c);
    ck_runs(c, MC_T_INT, 4);
    ck_assert_int_eq(cmp(c, 1, MPI_INT, 4).verdict, MC_SIG_MATCH);
    ck_assert_int_eq(cmp(MPI_INT, 4, c, 1).verdict, MC_SIG_MATCH);
    ck_assert_int_eq(cmp(MPI_2INT, 2, c, 1).verdict, MC_SIG_MATCH);
    /* MPI_FLOAT_INT equals the struct the standard defines it "as if". */
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, sizeof(float) };
    MPI_Datatype types[2] = { MPI_FLOAT, MPI_INT }, fi;
    MPI_Type_create_struct(2, bl, disp, types, &fi);
    fi = committed(fi);
    ck_assert_int_eq(cmp(MPI_FLOAT_INT, 3, fi, 3).verdict, MC_SIG_MATCH);
    mc_sig_result r = cmp(MPI_DOUBLE_INT, 1, MPI_2INT, 1);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, 0);
    ck_assert_uint_eq(r.msg_id, MC_T_DOUBLE);
    ck_assert_uint_eq(r.recv_id, MC_T_INT);
    drop(&c);
    drop(&fi);
}
END_TEST

START_TEST(test_constructors)
{
    MPI_Datatype t;
    MPI_Type_contiguous(6, MPI_INT, &t);
    ck_runs(t, MC_T_INT, 6);
    drop(&t);
    MPI_Type_vector(2, 3, 5, MPI_INT, &t);
    ck_runs(t, MC_T_INT, 6);
    drop(&t);
    MPI_Type_create_hvector(3, 2, 100, MPI_DOUBLE, &t);
    ck_runs(t, MC_T_DOUBLE, 6);
    drop(&t);
    int bl3[3] = { 1, 0, 4 }, d3[3] = { 0, 3, 7 };
    MPI_Type_indexed(3, bl3, d3, MPI_FLOAT, &t);
    ck_runs(t, MC_T_FLOAT, 5);      /* the zero-length block vanishes */
    drop(&t);
    int bl2[2] = { 2, 3 };
    MPI_Aint hd2[2] = { 0, 64 };
    MPI_Type_create_hindexed(2, bl2, hd2, MPI_CHAR, &t);
    ck_runs(t, MC_T_CHAR, 5);
    drop(&t);
    int d4[4] = { 0, 4, 8, 12 };
    MPI_Type_create_indexed_block(4, 2, d4, MPI_SHORT, &t);
    ck_runs(t, MC_T_SHORT, 8);
    drop(&t);
    MPI_Aint hd3[3] = { 0, 16, 32 };
    MPI_Type_create_hindexed_block(3, 1, hd3, MPI_LONG, &t);
    ck_runs(t, MC_T_LONG, 3);
    drop(&t);
    MPI_Type_dup(MPI_UNSIGNED, &t);
    ck_runs(t, MC_T_UNSIGNED, 1);
    drop(&t);
    MPI_Type_create_resized(MPI_INT, 0, 64, &t);
    ck_runs(t, MC_T_INT, 1);
    drop(&t);
    ck_assert_uint_eq(mc_typesig_cached(), 0);
}
END_TEST

START_TEST(test_struct)
{
    int bl[4] = { 2, 1, 3, 0 };
    MPI_Aint disp[4] = { 0, 8, 16, 24 };
    MPI_Datatype types[4] = { MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_FLOAT }, t, r, d;
    MPI_Type_create_struct(4, bl, disp, types, &t);
    ck_runs(t, MC_T_INT, 2, MC_T_DOUBLE, 1, MC_T_CHAR, 3);
    /* Resized and dup keep the old type's signature. */
    MPI_Type_create_resized(t, 0, 128, &r);
    ck_runs(r, MC_T_INT, 2, MC_T_DOUBLE, 1, MC_T_CHAR, 3);
    MPI_Type_dup(r, &d);
    ck_runs(d, MC_T_INT, 2, MC_T_DOUBLE, 1, MC_T_CHAR, 3);
    /* Adjacent equal types merge across struct members, zero counts vanish. */
    int bl2[3] = { 1, 0, 1 };
    MPI_Aint disp2[3] = { 0, 8, 16 };
    MPI_Datatype types2[3] = { MPI_INT, MPI_DOUBLE, MPI_2INT }, m;
    MPI_Type_create_struct(3, bl2, disp2, types2, &m);
    ck_runs(m, MC_T_INT, 3);
    char buf[128];
    ck_assert_str_eq(mc_typesig_render(t, 2, buf, sizeof buf),
                     "2 x {2 MPI_INT, MPI_DOUBLE, 3 MPI_CHAR}");
    ck_assert_str_eq(mc_typesig_render(MPI_INT, 12, buf, sizeof buf), "12 MPI_INT");
    drop(&t);
    drop(&r);
    drop(&d);
    drop(&m);
}
END_TEST

START_TEST(test_subarray_darray)
{
    int sizes[2] = { 10, 20 }, sub[2] = { 3, 4 }, starts[2] = { 1, 2 };
    MPI_Datatype t;
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_2INT, &t);
    ck_runs(t, MC_T_INT, 24);
    drop(&t);
    int sizes3[3] = { 4, 5, 6 }, sub3[3] = { 2, 1, 3 }, st3[3] = { 0, 0, 0 };
    MPI_Type_create_subarray(3, sizes3, sub3, st3, MPI_ORDER_FORTRAN, MPI_DOUBLE_INT, &t);
    mc_sig s = sig(t);     /* 6 pairs: DOUBLE, INT, DOUBLE, INT, ... */
    ck_assert_uint_eq(s.runs[0].id, MC_T_DOUBLE);
    ck_assert_uint_eq(s.runs[11].id, MC_T_INT);
    ck_assert_uint_eq(s.nelems, 12);
    ck_assert_uint_eq(s.nruns, 12);
    mc_sig_free(&s);
    drop(&t);
    /* Rank 1 of a 2 x 2 grid over a 7 x 5 array, block-block: rows 0-3,
     * columns 3-4, so 8 elements (the darray's size and rank need not be
     * the communicator's). */
    int gs[2] = { 7, 5 }, dist[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK };
    int dargs[2] = { MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG }, ps[2] = { 2, 2 };
    MPI_Type_create_darray(4, 1, 2, gs, dist, dargs, ps, MPI_ORDER_C, MPI_DOUBLE, &t);
    ck_runs(t, MC_T_DOUBLE, 8);
    drop(&t);
    int cyc[2] = { MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE };
    MPI_Type_create_darray(3, 2, 2, gs, cyc, dargs, (int[]){ 3, 1 }, MPI_ORDER_C, MPI_FLOAT_INT, &t);
    s = sig(t);
    ck_assert_uint_eq(s.nelems, 2 * 2 * 5);         /* rows 2 and 5, all 5 columns, pairs */
    mc_sig_free(&s);
    drop(&t);
}
END_TEST

START_TEST(test_nested)
{
    /* vector(2, 1, 3, struct{contiguous(2, MPI_FLOAT_INT), MPI_DOUBLE}) */
    MPI_Datatype c, s, v;
    MPI_Type_contiguous(2, MPI_FLOAT_INT, &c);
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, 32 };
    MPI_Datatype types[2] = { c, MPI_DOUBLE };
    MPI_Type_create_struct(2, bl, disp, types, &s);
    MPI_Type_vector(2, 1, 3, s, &v);
    v = committed(v);
    ck_runs(v, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_DOUBLE, 1,
            MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_DOUBLE, 1);
    char buf[160];
    ck_assert_str_eq(mc_typesig_render(s, 2, buf, sizeof buf),
                     "2 x {MPI_FLOAT, MPI_INT, MPI_FLOAT, MPI_INT, MPI_DOUBLE}");
    ck_assert_int_eq(cmp(v, 1, s, 2).verdict, MC_SIG_MATCH);
    ck_assert_int_eq(cmp(s, 3, v, 1).verdict, MC_SIG_TRUNCATED);
    /* Freeing the inner types first is legal: the outer keeps them alive, and
     * only the handles the checker was asked about stay in the cache. */
    drop(&c);
    drop(&s);
    ck_runs(v, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_DOUBLE, 1,
            MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_DOUBLE, 1);
    mc_typesig_forget(v);
    ck_runs(v, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_DOUBLE, 1,
            MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_FLOAT, 1, MC_T_INT, 1, MC_T_DOUBLE, 1);
    ck_assert_uint_eq(mc_typesig_cached(), 1);
    drop(&v);
    ck_assert_uint_eq(mc_typesig_cached(), 0);
}
END_TEST

START_TEST(test_sibling_members)
{
    /* struct {vector(2, contiguous(3, MPI_INT)), vector(2, contiguous(2, MPI_DOUBLE))}:
     * Open MPI hands out a new duplicate for every member, so the second
     * inner type must not be mistaken for the first one at a reused address. */
    MPI_Datatype x, y, a, b, t;
    MPI_Type_contiguous(3, MPI_INT, &x);
    MPI_Type_contiguous(2, MPI_DOUBLE, &y);
    MPI_Type_vector(2, 1, 2, x, &a);
    MPI_Type_vector(2, 1, 2, y, &b);
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, 1024 };
    MPI_Datatype types[2] = { a, b };
    MPI_Type_create_struct(2, bl, disp, types, &t);
    for (int i = 0; i < 3; i++) {
        ck_runs(t, MC_T_INT, 6, MC_T_DOUBLE, 4);
        mc_typesig_forget(t);
    }
    drop(&x);
    drop(&y);
    drop(&a);
    drop(&b);
    drop(&t);
}
END_TEST

START_TEST(test_doubling)
{
    /* t(k+1) = struct {t(k), t(k)}, 20 levels: 2^20 MPI_INT. MPICH returns the
     * same member handles and the walk shares them; Open MPI's duplicates make
     * it 2^20 reads, past the budget, so the part past the budget is unknown
     * (the part before it stays exact). Either way there is no false report. */
    MPI_Datatype t = MPI_INT, next, made[20];
    int bl[2] = { 1, 1 };
    MPI_Aint disp[2] = { 0, 0 };
    for (int k = 0; k < 20; k++) {
        MPI_Datatype types[2] = { t, t };
        MPI_Type_create_struct(2, bl, disp, types, &next);
        made[k] = t = next;
    }
    mc_sig s = sig(t);
    if (s.flags & MC_SIG_OPAQUE) {
        ck_assert_uint_eq(s.runs[0].id, MC_T_INT);
        ck_assert_int_ne(cmp(MPI_INT, 1 << 20, t, 1).verdict, MC_SIG_MISMATCH);
        ck_assert_int_ne(cmp(t, 1, MPI_INT, 1 << 20).verdict, MC_SIG_MISMATCH);
    } else {
        ck_assert_uint_eq(s.nelems, 1u << 20);
        ck_assert_uint_eq(s.nruns, 1);
        ck_assert_int_eq(cmp(MPI_INT, 1 << 20, t, 1).verdict, MC_SIG_MATCH);
    }
    mc_sig_free(&s);
    for (int k = 19; k >= 0; k--)
        drop(&made[k]);
}
END_TEST

START_TEST(test_equivalences)
{
    MPI_Datatype vec, con, one;
    MPI_Type_vector(2, 3, 7, MPI_INT, &vec);
    MPI_Type_contiguous(6, MPI_INT, &con);
    MPI_Type_contiguous(1, vec, &one);
    uint64_t h1, h2, h3, h4, n1, n2, n3, n4;
    uint32_t f1, f2, f3, f4;
    ck_assert_int_eq(mc_typesig_total(vec, 1, &h1, &n1, &f1), 0);
    ck_assert_int_eq(mc_typesig_total(con, 1, &h2, &n2, &f2), 0);
    ck_assert_int_eq(mc_typesig_total(MPI_INT, 6, &h3, &n3, &f3), 0);
    ck_assert_int_eq(mc_typesig_total(MPI_2INT, 3, &h4, &n4, &f4), 0);
    ck_assert_uint_eq(h1, h2);
    ck_assert_uint_eq(h1, h3);
    ck_assert_uint_eq(h1, h4);
    ck_assert_uint_eq(n1, 6);
    ck_assert_uint_eq(n4, 6);
    ck_assert_uint_eq(f1 | f2 | f3 | f4, 0);
    mc_sig a = sig(vec), b = sig(one);
    ck_assert_uint_eq(a.hash, b.hash);
    mc_sig_free(&a);
    mc_sig_free(&b);
    ck_assert_int_eq(cmp(vec, 2, con, 2).verdict, MC_SIG_MATCH);
    ck_assert_int_eq(cmp(vec, 1, MPI_INT, 10).verdict, MC_SIG_MATCH);
    mc_sig_result r = cmp(MPI_INT, 10, vec, 1);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_uint_eq(r.msg_elems, 10);
    ck_assert_uint_eq(r.recv_elems, 6);
    r = cmp(con, 1, MPI_UNSIGNED, 6);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_uint_eq(r.recv_id, MC_T_UNSIGNED);
    drop(&vec);
    drop(&con);
    drop(&one);
}
END_TEST

START_TEST(test_byte_packed)
{
    /* MPI-3.1 3.3.1 Example 3.2 (REAL sent, BYTE received) is erroneous;
     * Example 3.3 (BYTE to BYTE) is correct. */
    mc_sig_result r = cmp(MPI_INT, 4, MPI_BYTE, 16);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(cmp(MPI_BYTE, 40, MPI_BYTE, 60).verdict, MC_SIG_MATCH);
    mc_sig_msg m;
    mc_typesig_msg(MPI_INT, 4, &m);
    mc_typesig_compare(&m, MPI_BYTE, 16, MC_SIGCMP_LAX_BYTE, &r);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    /* Any message can be received as MPI_PACKED, a packed one with any type:
     * only the byte counts matter. */
    ck_assert_int_eq(cmp(MPI_PACKED, 16, MPI_INT, 4).verdict, MC_SIG_MATCH);
    r = cmp(MPI_PACKED, 17, MPI_INT, 4);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_uint_eq(r.msg_bytes, 17);
    ck_assert_uint_eq(r.recv_bytes, 16);
    ck_assert_int_eq(cmp(MPI_DOUBLE_INT, 2, MPI_PACKED, 64).verdict, MC_SIG_MATCH);
    ck_assert_int_eq(cmp(MPI_DOUBLE, 3, MPI_PACKED, 20).verdict, MC_SIG_TRUNCATED);
}
END_TEST

START_TEST(test_free_and_reuse)
{
    MPI_Datatype a, b;
    MPI_Type_contiguous(4, MPI_INT, &a);
    ck_runs(a, MC_T_INT, 4);
    ck_assert_uint_eq(mc_typesig_cached(), 1);
    MPI_Datatype old = a;
    drop(&a);
    ck_assert_uint_eq(mc_typesig_cached(), 0);
    MPI_Type_contiguous(3, MPI_DOUBLE, &b);
    ck_runs(b, MC_T_DOUBLE, 3);    /* right even when b reuses a's handle */
    drop(&b);
    /* Why the MPI_Type_free wrapper must call mc_typesig_forget: without it a
     * reused handle would inherit the freed type's signature. */
    MPI_Type_contiguous(4, MPI_INT, &a);
    ck_runs(a, MC_T_INT, 4);
    old = a;
    MPI_Type_free(&a);
    MPI_Type_contiguous(3, MPI_DOUBLE, &b);
    if (b == old)
        ck_runs(b, MC_T_INT, 4);
    drop(&b);
    mc_typesig_forget(old);
    ck_assert_uint_eq(mc_typesig_cached(), 0);
}
END_TEST

/* typecache.c: the cached totals and extents of a handle freed and made
 * again as another type (MPICH and Open MPI both hand the handle out again
 * at once) are the new type's. */
START_TEST(test_cache_free_and_reuse)
{
    MPI_Datatype a, b;
    uint64_t h, n, h0, n0;
    uint32_t f, f0;
    mc_type_extents x;
    MPI_Type_contiguous(4, MPI_INT, &a);
    ck_assert_int_eq(mc_typecache_total(a, 2, &h, &n, &f), 0);
    ck_assert_uint_eq(n, 8);
    ck_assert_int_eq(mc_typecache_total(a, 2, &h0, &n0, &f0), 0);     /* a hit: the same answer */
    ck_assert(h0 == h && n0 == n && f0 == f);
    ck_assert_int_eq(mc_typecache_extents(a, &x), 0);
    ck_assert_int_eq(x.size, 16);
    ck_assert_int_eq(x.extent, 16);
    drop(&a);
    MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &b);
    ck_assert_int_eq(mc_typecache_total(b, 2, &h, &n, &f), 0);
    ck_assert_uint_eq(n, 6);
    ck_assert_int_eq(mc_typesig_total(b, 2, &h0, &n0, &f0), 0);       /* as uncached */
    ck_assert(h0 == h && n0 == n && f0 == f);
    ck_assert_int_eq(mc_typecache_extents(b, &x), 0);
    ck_assert_int_eq(x.size, 24);
    ck_assert_int_eq(x.extent, 40);
    ck_assert_int_eq(x.true_extent, 40);
    drop(&b);
}
END_TEST

START_TEST(test_unknown_and_long)
{
    mc_sig_msg m;
    mc_sig_result r;
    ck_assert_int_eq(mc_typesig_msg(MPI_DATATYPE_NULL, 3, &m), -1);
    mc_typesig_compare(&m, MPI_INT, 3, 0, &r);
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    mc_typesig_msg(MPI_INT, 3, &m);
    mc_typesig_compare(&m, MPI_DATATYPE_NULL, 3, 0, &r);
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    char buf[64];
    ck_assert_str_eq(mc_typesig_render(MPI_DATATYPE_NULL, 1, buf, sizeof buf), "(unknown datatype)");
    /* A struct of 5000 alternating members: too many runs to keep, still
     * compared exactly by hash. */
    enum { N = 5000 };
    int *bl = malloc(N * sizeof *bl);
    MPI_Aint *disp = malloc(N * sizeof *disp);
    MPI_Datatype *types = malloc(N * sizeof *types), big, pair;
    for (int i = 0; i < N; i++) {
        bl[i] = 1;
        disp[i] = 8 * i;
        types[i] = i % 2 ? MPI_DOUBLE : MPI_INT;
    }
    MPI_Type_create_struct(N, bl, disp, types, &big);
    MPI_Type_create_struct(2, bl, disp, types, &pair);
    mc_sig s = sig(big);
    ck_assert(s.flags & MC_SIG_LONG);
    ck_assert_uint_eq(s.nelems, N);
    mc_sig_free(&s);
    ck_assert_int_eq(cmp(big, 1, pair, N / 2).verdict, MC_SIG_MATCH);
    ck_assert_int_eq(cmp(pair, N / 2, big, 1).verdict, MC_SIG_MATCH);
    ck_assert_int_eq(cmp(big, 1, pair, N / 2 - 1).verdict, MC_SIG_TRUNCATED);
    r = cmp(big, 1, MPI_DOUBLE_INT, N / 2);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, -1);
    drop(&big);
    drop(&pair);
    free(bl);
    free(disp);
    free(types);
}
END_TEST

#if MPI_VERSION >= 4
START_TEST(test_large_count)
{
    /* MPI-4 large-count constructors keep their counts in the large-count
     * array; MPICH refuses the plain MPI_Type_get_envelope on them. */
    MPI_Datatype t;
    MPI_Type_contiguous_c(3000000000LL, MPI_CHAR, &t);
    ck_runs(t, MC_T_CHAR, 3000000000LL);
    drop(&t);
    MPI_Type_vector_c(2, 3, 5, MPI_INT, &t);
    ck_runs(t, MC_T_INT, 6);
    ck_assert_int_eq(cmp(t, 1, MPI_INT, 6).verdict, MC_SIG_MATCH);
    drop(&t);
    MPI_Type_create_hvector_c(3, 2, 64, MPI_DOUBLE, &t);
    ck_runs(t, MC_T_DOUBLE, 6);
    drop(&t);
    MPI_Count bl[3] = { 1, 0, 4 }, d[3] = { 0, 3, 7 };
    MPI_Type_indexed_c(3, bl, d, MPI_FLOAT, &t);
    ck_runs(t, MC_T_FLOAT, 5);
    drop(&t);
    MPI_Type_create_hindexed_c(3, bl, d, MPI_SHORT, &t);
    ck_runs(t, MC_T_SHORT, 5);
    drop(&t);
    MPI_Type_create_indexed_block_c(3, 2, d, MPI_LONG, &t);
    ck_runs(t, MC_T_LONG, 6);
    drop(&t);
    MPI_Type_create_hindexed_block_c(3, 2, d, MPI_CHAR, &t);
    ck_runs(t, MC_T_CHAR, 6);
    drop(&t);
    MPI_Count sbl[2] = { 2, 1 }, sd[2] = { 0, 8 };
    MPI_Datatype types[2] = { MPI_INT, MPI_DOUBLE }, s, r;
    MPI_Type_create_struct_c(2, sbl, sd, types, &s);
    ck_runs(s, MC_T_INT, 2, MC_T_DOUBLE, 1);
    MPI_Type_create_resized_c(s, 0, 64, &r);
    ck_runs(r, MC_T_INT, 2, MC_T_DOUBLE, 1);
    drop(&r);
    MPI_Count sizes[2] = { 10, 20 }, sub[2] = { 3, 4 }, starts[2] = { 1, 2 };
    MPI_Type_create_subarray_c(2, sizes, sub, starts, MPI_ORDER_C, MPI_2INT, &t);
    ck_runs(t, MC_T_INT, 24);
    drop(&t);
    MPI_Type_contiguous_c(2, s, &t);       /* large outside, classic inside */
    ck_runs(t, MC_T_INT, 2, MC_T_DOUBLE, 1, MC_T_INT, 2, MC_T_DOUBLE, 1);
    drop(&t);
    drop(&s);
}
END_TEST
#endif

#if defined(MPI_LB) && !defined(OPEN_MPI)
START_TEST(test_lb_ub)
{
    /* MPI_LB and MPI_UB occupy no space and carry no data (MPI-2.2 4.1.6). */
    int bl[3] = { 1, 2, 1 };
    MPI_Aint disp[3] = { -8, 0, 32 };
    MPI_Datatype types[3] = { MPI_LB, MPI_INT, MPI_UB }, t;
    MPI_Type_create_struct(3, bl, disp, types, &t);
    ck_runs(t, MC_T_INT, 2);
    drop(&t);
}
END_TEST
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    Suite *s = suite_create("typesig");
    TCase *tc = tcase_create("mpi");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_predefined);
    tcase_add_test(tc, test_pairs);
    tcase_add_test(tc, test_constructors);
    tcase_add_test(tc, test_struct);
    tcase_add_test(tc, test_subarray_darray);
    tcase_add_test(tc, test_nested);
    tcase_add_test(tc, test_sibling_members);
    tcase_add_test(tc, test_doubling);
    tcase_add_test(tc, test_equivalences);
    tcase_add_test(tc, test_byte_packed);
    tcase_add_test(tc, test_free_and_reuse);
    tcase_add_test(tc, test_cache_free_and_reuse);
    tcase_add_test(tc, test_unknown_and_long);
#if MPI_VERSION >= 4
    tcase_add_test(tc, test_large_count);
#endif
#if defined(MPI_LB) && !defined(OPEN_MPI)
    tcase_add_test(tc, test_lb_ub);
#endif
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_NOFORK);
    mc_typesig_fini();
    MPI_Finalize();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
