/*
 * test_collrec.c - unit tests of src/coll/collrec.c without MPI: the
 * collective handshake's record, combined as MPI_MAX would combine it, and
 * the verdict on it for agreeing and disagreeing members.
 */
#include <check.h>
#include "run_suite.h"
#include <stdint.h>
#include "collrec.h"

/* Combines n members' records as the reduction does. */
static mc_collrec combine(const mc_collrec *m, int n)
{
    mc_collrec all;
    mc_collrec_init(&all);
    for (int i = 0; i < n; i++)
        mc_collrec_merge(&all, &m[i]);
    return all;
}

static void member(mc_collrec *r, int kind, int root, int64_t hash, int64_t bytes)
{
    mc_collrec_init(r);
    mc_collrec_put(r, MC_CR_KIND, kind);
    if (root >= 0)
        mc_collrec_put(r, MC_CR_ROOT, root);
    mc_collrec_put(r, MC_CR_SEND_HASH, hash);
    mc_collrec_put(r, MC_CR_SEND_BYTES, bytes);
    mc_collrec_put(r, MC_CR_RECV_HASH, hash);
    mc_collrec_put(r, MC_CR_RECV_BYTES, bytes);
}

START_TEST(test_min_max)
{
    mc_collrec a, b;
    mc_collrec_init(&a);
    mc_collrec_init(&b);
    int64_t lo, hi;
    ck_assert(!mc_collrec_get(&a, MC_CR_ROOT, &lo, &hi));
    mc_collrec_put(&a, MC_CR_ROOT, 3);
    mc_collrec_put(&b, MC_CR_ROOT, -7);
    mc_collrec_put(&b, MC_CR_ROOT, 12);
    mc_collrec_merge(&a, &b);
    ck_assert(mc_collrec_get(&a, MC_CR_ROOT, &lo, &hi));
    ck_assert_int_eq(lo, -7);
    ck_assert_int_eq(hi, 12);
}
END_TEST

START_TEST(test_agree)
{
    mc_collrec m[4];
    for (int i = 0; i < 4; i++)
        member(&m[i], 9, 0, 1234, 16);
    mc_collrec all = combine(m, 4);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), 0);
}
END_TEST

START_TEST(test_kind_root_op)
{
    mc_collrec m[3];
    for (int i = 0; i < 3; i++)
        member(&m[i], 9, 0, 1234, 16);
    mc_collrec_put(&m[2], MC_CR_KIND, 13);      /* another collective */
    mc_collrec all = combine(m, 3);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), MC_CM_KIND);
    ck_assert(mc_collrec_unsafe(MC_CM_KIND));

    for (int i = 0; i < 3; i++)
        member(&m[i], 9, i == 1 ? 1 : 0, 1234, 16);
    all = combine(m, 3);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), MC_CM_ROOT);

    for (int i = 0; i < 3; i++) {
        member(&m[i], 9, -1, 1234, 16);
        mc_collrec_put(&m[i], MC_CR_OP, i == 0 ? 3 : 1);
    }
    all = combine(m, 3);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), MC_CM_OP);
    ck_assert(!mc_collrec_unsafe(MC_CM_OP));
}
END_TEST

START_TEST(test_type_and_size)
{
    mc_collrec m[2];
    member(&m[0], 9, 0, 1111, 16);
    member(&m[1], 9, 0, 2222, 16);              /* same bytes, other types */
    mc_collrec all = combine(m, 2);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), MC_CM_TYPE);
    /* MPI_PACKED somewhere: bytes only. */
    mc_collrec_put(&m[1], MC_CR_NOSIG, 1);
    all = combine(m, 2);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), 0);
    member(&m[1], 9, 0, 1111, 32);
    all = combine(m, 2);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), MC_CM_SIZE);
}
END_TEST

/* A gather: non-roots give only a send part, the root only its receive
 * part per rank; all must be one value. */
START_TEST(test_gather_parts)
{
    mc_collrec m[3];
    for (int i = 0; i < 3; i++) {
        mc_collrec_init(&m[i]);
        mc_collrec_put(&m[i], MC_CR_KIND, 5);
        mc_collrec_put(&m[i], MC_CR_ROOT, 0);
    }
    mc_collrec_put(&m[0], MC_CR_RECV_HASH, 77);
    mc_collrec_put(&m[0], MC_CR_RECV_BYTES, 8);
    for (int i = 1; i < 3; i++) {
        mc_collrec_put(&m[i], MC_CR_SEND_HASH, 77);
        mc_collrec_put(&m[i], MC_CR_SEND_BYTES, 8);
    }
    mc_collrec all = combine(m, 3);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), 0);
    mc_collrec_put(&m[0], MC_CR_RECV_BYTES, 4);     /* root expects a second size */
    all = combine(m, 3);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 0), MC_CM_SIZE);
}
END_TEST

/* Intercommunicator bcast: group 0 holds the root (MPI_ROOT at rank 1 of
 * group 0, MPI_PROC_NULL elsewhere), group 1 names rank 1. */
static void inter_member(mc_collrec *r, int g, int cls, int world, int grank, int rroot)
{
    mc_collrec_init(r);
    mc_collrec_put(r, MC_CR_KIND, 4);
    mc_collrec_put(r, MC_CR_RCLASS + g, cls);
    if (cls == 0) {
        mc_collrec_put(r, MC_CR_ROOTER + g, world);
        mc_collrec_put(r, MC_CR_ROOTRANK + g, grank);
        mc_collrec_put(r, MC_CR_G(MC_CR_SEND_HASH, g), 5);
        mc_collrec_put(r, MC_CR_G(MC_CR_SEND_BYTES, g), 40);
    } else if (cls == 2) {
        mc_collrec_put(r, MC_CR_RROOT + g, rroot);
        mc_collrec_put(r, MC_CR_G(MC_CR_RECV_HASH, g), 5);
        mc_collrec_put(r, MC_CR_G(MC_CR_RECV_BYTES, g), 40);
    }
}

START_TEST(test_inter_roots)
{
    mc_collrec m[4];
    inter_member(&m[0], 0, 1, 0, 0, 0);
    inter_member(&m[1], 0, 0, 1, 1, 0);
    inter_member(&m[2], 1, 2, 2, 0, 1);
    inter_member(&m[3], 1, 2, 3, 1, 1);
    mc_collrec all = combine(m, 4);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 1), 0);
    /* The other group names the wrong root. */
    inter_member(&m[3], 1, 2, 3, 1, 0);
    all = combine(m, 4);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 1) & MC_CM_ROOT, MC_CM_ROOT);
    /* Two members give MPI_ROOT. */
    inter_member(&m[3], 1, 2, 3, 1, 1);
    inter_member(&m[0], 0, 0, 0, 0, 0);
    all = combine(m, 4);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 1) & MC_CM_ROOT, MC_CM_ROOT);
    /* Nobody gives MPI_ROOT. */
    inter_member(&m[0], 0, 1, 0, 0, 0);
    inter_member(&m[1], 0, 1, 1, 1, 0);
    all = combine(m, 4);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 1) & MC_CM_ROOT, MC_CM_ROOT);
}
END_TEST

/* Intercommunicator allgather: group 0 sends 8 bytes, group 1 receives 8
 * from each of group 0 and sends 16, which group 0 receives. */
START_TEST(test_inter_cross_parts)
{
    mc_collrec m[2];
    for (int g = 0; g < 2; g++) {
        mc_collrec_init(&m[g]);
        mc_collrec_put(&m[g], MC_CR_KIND, 7);
    }
    mc_collrec_put(&m[0], MC_CR_G(MC_CR_SEND_BYTES, 0), 8);
    mc_collrec_put(&m[0], MC_CR_G(MC_CR_RECV_BYTES, 0), 16);
    mc_collrec_put(&m[1], MC_CR_G(MC_CR_SEND_BYTES, 1), 16);
    mc_collrec_put(&m[1], MC_CR_G(MC_CR_RECV_BYTES, 1), 8);
    mc_collrec all = combine(m, 2);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 1), 0);
    mc_collrec_put(&m[1], MC_CR_G(MC_CR_RECV_BYTES, 1), 4);
    all = combine(m, 2);
    ck_assert_uint_eq(mc_collrec_verdict(&all, 1), MC_CM_SIZE);
}
END_TEST

START_TEST(test_flags_and_text)
{
    mc_collrec m[2];
    member(&m[0], 9, -1, 1, 1);
    member(&m[1], 9, -1, 1, 1);
    mc_collrec_put(&m[0], MC_CR_INPLACE, 1);
    mc_collrec_put(&m[1], MC_CR_INPLACE, 0);
    mc_collrec all = combine(m, 2);
    unsigned v = mc_collrec_verdict(&all, 0);
    ck_assert_uint_eq(v, MC_CM_INPLACE);
    mc_collrec_put(&m[1], MC_CR_VBAD, 1);
    all = combine(m, 2);
    v = mc_collrec_verdict(&all, 0);
    ck_assert_uint_eq(v, MC_CM_INPLACE | MC_CM_VPART);
    char buf[256];
    mc_collrec_describe(v, buf, sizeof buf);
    ck_assert_str_eq(buf, "MPI_IN_PLACE given by some members only, per-rank counts that do not match the other side's");
    ck_assert_uint_ne(mc_collrec_mix(1, 2), mc_collrec_mix(2, 1));
    ck_assert_uint_ne(mc_collrec_mix(0, 0), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collrec");
    TCase *tc = tcase_create("verdict");
    tcase_add_test(tc, test_min_max);
    tcase_add_test(tc, test_agree);
    tcase_add_test(tc, test_kind_root_op);
    tcase_add_test(tc, test_type_and_size);
    tcase_add_test(tc, test_gather_parts);
    tcase_add_test(tc, test_inter_roots);
    tcase_add_test(tc, test_inter_cross_parts);
    tcase_add_test(tc, test_flags_and_text);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? 1 : 0;
}
