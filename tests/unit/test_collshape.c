/*
 * test_collshape.c - unit tests of src/coll/shape.c: which MPI functions the
 * collective handshakes take as collective, of which family and form, and
 * where their arguments are. Runs on the generated function table, no MPI
 * calls.
 */
#include <check.h>
#include "run_suite.h"
#include <string.h>
#include "coll.h"

static const mc_coll_fn *fn(int id)
{
    const mc_coll_fn *f = mc_coll_fn_of(id);
    ck_assert_ptr_nonnull(f);
    return f;
}

START_TEST(test_forms_share_a_family)
{
    const mc_coll_fn *b = fn(MC_FN_MPI_Bcast), *ib = fn(MC_FN_MPI_Ibcast);
    ck_assert_int_eq(b->family, ib->family);
    ck_assert_int_eq(b->variant, MC_VAR_BLOCKING);
    ck_assert_int_eq(ib->variant, MC_VAR_NONBLOCKING);
    ck_assert_int_eq(fn(MC_FN_MPI_Ibarrier)->family, fn(MC_FN_MPI_Barrier)->family);
    ck_assert_int_eq(fn(MC_FN_MPI_Iallreduce)->shape, MC_SH_ALLREDUCE);
    ck_assert_int_eq(fn(MC_FN_MPI_Ineighbor_alltoall)->shape, MC_SH_NEIGHBOR);
    ck_assert_int_eq(fn(MC_FN_MPI_Comm_idup)->family, fn(MC_FN_MPI_Comm_dup)->family);
    ck_assert_int_eq(fn(MC_FN_MPI_Comm_idup)->variant, MC_VAR_NONBLOCKING);
    ck_assert_int_eq(fn(MC_FN_MPI_Comm_dup_with_info)->family, fn(MC_FN_MPI_Comm_dup)->family);
#ifdef MC_FN_MPI_Bcast_init
    ck_assert_int_eq(fn(MC_FN_MPI_Bcast_init)->variant, MC_VAR_PERSISTENT);
    ck_assert_int_eq(fn(MC_FN_MPI_Bcast_init)->family, b->family);
#endif
#ifdef MC_FN_MPI_Bcast_c
    ck_assert_int_eq(fn(MC_FN_MPI_Bcast_c)->large, 1);
    ck_assert_int_eq(fn(MC_FN_MPI_Bcast_c)->family, b->family);
#endif
    ck_assert_int_ne(fn(MC_FN_MPI_Gather)->family, fn(MC_FN_MPI_Gatherv)->family);
    ck_assert_int_ne(fn(MC_FN_MPI_Reduce_scatter)->family, fn(MC_FN_MPI_Reduce_scatter_block)->family);
}
END_TEST

START_TEST(test_not_collective)
{
    ck_assert_ptr_null(mc_coll_fn_of(MC_FN_MPI_Send));
    ck_assert_ptr_null(mc_coll_fn_of(MC_FN_MPI_Iprobe));
    ck_assert_ptr_null(mc_coll_fn_of(MC_FN_MPI_Comm_rank));
    ck_assert_ptr_null(mc_coll_fn_of(MC_FN_MPI_Reduce_local));
    ck_assert_ptr_null(mc_coll_fn_of(MC_FN_MPI_Comm_create_group));
    ck_assert_ptr_null(mc_coll_fn_of(-1));
}
END_TEST

START_TEST(test_arguments)
{
    const mc_coll_fn *g = fn(MC_FN_MPI_Gatherv);
    ck_assert_int_eq(g->a_sbuf, 0);
    ck_assert_int_eq(g->a_scount, 1);
    ck_assert_int_eq(g->a_stype, 2);
    ck_assert_int_eq(g->a_rbuf, 3);
    ck_assert_int_eq(g->a_rcount, 4);     /* recvcounts */
    ck_assert_int_eq(g->a_rtype, 6);
    ck_assert_int_eq(g->a_root, 7);
    ck_assert_int_eq(g->a_comm, 8);
    const mc_coll_fn *r = fn(MC_FN_MPI_Reduce);
    ck_assert_int_eq(r->a_scount, 2);     /* count, both ways */
    ck_assert_int_eq(r->a_rcount, 2);
    ck_assert_int_eq(r->a_op, 4);
    ck_assert_int_eq(r->a_root, 5);
    const mc_coll_fn *b = fn(MC_FN_MPI_Bcast);
    ck_assert_int_eq(b->a_sbuf, 0);       /* buffer */
    ck_assert_int_eq(b->a_stype, 2);
    /* MPI_Comm_free waits for no one (shape.c); MPI_Comm_disconnect does. */
    ck_assert_ptr_null(mc_coll_fn_of(MC_FN_MPI_Comm_free));
    const mc_coll_fn *f = fn(MC_FN_MPI_Comm_disconnect);
    ck_assert_int_eq(f->comm_ptr, 1);
    ck_assert_int_eq(fn(MC_FN_MPI_Intercomm_create)->a_comm, 0);   /* local_comm */
    ck_assert_int_eq(fn(MC_FN_MPI_Barrier)->a_root, -1);
    /* Calls without data whose members must name one process alike: the
     * handshake compares it as the root (issue 14). */
    ck_assert_int_eq(fn(MC_FN_MPI_Intercomm_create)->a_root, 1);     /* local_leader */
    ck_assert_int_eq(fn(MC_FN_MPI_Comm_spawn)->a_root, 4);           /* root */
    ck_assert_int_eq(fn(MC_FN_MPI_Comm_accept)->a_root, 2);
    ck_assert_int_eq(fn(MC_FN_MPI_Comm_connect)->a_root, 2);
    ck_assert_int_eq(fn(MC_FN_MPI_Comm_dup)->a_root, -1);
    ck_assert_int_eq(fn(MC_FN_MPI_Intercomm_merge)->a_root, -1);    /* high is per group, src/inter/ */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("collshape");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_forms_share_a_family);
    tcase_add_test(tc, test_not_collective);
    tcase_add_test(tc, test_arguments);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? 1 : 0;
}
