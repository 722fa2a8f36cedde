/*
 * test_fn_table.c - the generator's output, read back through the table it
 * generated from wrappers/mpi.protos: roles, references, flags, value types.
 * A wrong role here means a wrong (or missing) check in every program.
 */
#include <check.h>
#include "run_suite.h"
#include <stdlib.h>
#include <string.h>
#include "fn_table.h"

static int param(int fn, const char *name)
{
    const mc_fn_desc *d = &mc_fn_table[fn];
    for (int i = 0; i < d->nparams; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return i;
    return -1;
}

START_TEST(send_roles)
{
    const mc_fn_desc *d = &mc_fn_table[MC_FN_MPI_Send];
    ck_assert_str_eq(d->name, "MPI_Send");
    ck_assert_int_eq(d->nparams, 6);
    ck_assert(d->has_roles);
    ck_assert_int_eq(d->params[0].role, MC_ROLE_SBUF);
    ck_assert_int_eq(d->params[0].ref[0], param(MC_FN_MPI_Send, "count"));
    ck_assert_int_eq(d->params[0].ref[1], param(MC_FN_MPI_Send, "datatype"));
    ck_assert_int_eq(d->params[0].ref[2], -1);
    ck_assert_int_eq(d->params[1].role, MC_ROLE_COUNT);
    ck_assert_int_eq(d->params[1].ctype, MC_CT_INT);
    ck_assert_int_eq(d->params[2].ctype, MC_CT_DATATYPE);
    ck_assert_int_eq(d->params[3].role, MC_ROLE_DEST);
    ck_assert_int_eq(d->params[3].ref[0], 5);
    ck_assert_int_eq(d->params[4].role, MC_ROLE_STAG);
    ck_assert_int_eq(d->params[5].role, MC_ROLE_COMM);
    ck_assert_int_eq(d->params[5].ctype, MC_CT_COMM);
}
END_TEST

START_TEST(recv_and_collectives)
{
    const mc_fn_desc *r = &mc_fn_table[MC_FN_MPI_Recv];
    ck_assert_int_eq(r->params[param(MC_FN_MPI_Recv, "source")].role, MC_ROLE_SOURCE);
    ck_assert_int_eq(r->params[param(MC_FN_MPI_Recv, "tag")].role, MC_ROLE_RTAG);
    ck_assert_int_eq(r->params[0].role, MC_ROLE_RBUF);
    const mc_fn_desc *g = &mc_fn_table[MC_FN_MPI_Gather];
    ck_assert_int_eq(g->params[param(MC_FN_MPI_Gather, "sendbuf")].role, MC_ROLE_LEAFBUF);
    ck_assert_int_eq(g->params[param(MC_FN_MPI_Gather, "recvbuf")].role, MC_ROLE_ROOTBUF);
    ck_assert_int_eq(g->params[param(MC_FN_MPI_Gather, "root")].role, MC_ROLE_ROOT);
    const mc_fn_desc *b = &mc_fn_table[MC_FN_MPI_Bcast];
    ck_assert_int_eq(b->params[0].role, MC_ROLE_BCASTBUF);
    ck_assert(b->flags & MC_FLAG_BLOCK);
    const mc_fn_desc *a = &mc_fn_table[MC_FN_MPI_Allreduce];
    ck_assert_int_eq(a->params[param(MC_FN_MPI_Allreduce, "op")].role, MC_ROLE_OP);
}
END_TEST

START_TEST(requests_and_flags)
{
    const mc_fn_desc *w = &mc_fn_table[MC_FN_MPI_Waitall];
    int reqs = param(MC_FN_MPI_Waitall, "array_of_requests");
    ck_assert_int_eq(w->params[reqs].role, MC_ROLE_REQ_ARRAY);
    ck_assert_int_eq(w->params[reqs].ref[0], param(MC_FN_MPI_Waitall, "count"));
    ck_assert(mc_fn_table[MC_FN_MPI_Send_init].flags & MC_FLAG_PERSISTENT);
    ck_assert(!(mc_fn_table[MC_FN_MPI_Isend].flags & MC_FLAG_PERSISTENT));
    ck_assert_int_eq(mc_fn_table[MC_FN_MPI_Isend].params[param(MC_FN_MPI_Isend, "request")].role,
                     MC_ROLE_REQ_OUT);
    ck_assert(mc_fn_table[MC_FN_MPI_Init].flags & MC_FLAG_MANUAL);
    ck_assert(mc_fn_table[MC_FN_MPI_Finalize].flags & MC_FLAG_MANUAL);
    ck_assert(mc_fn_table[MC_FN_MPI_Initialized].flags & MC_FLAG_PREINIT);
    ck_assert(mc_fn_table[MC_FN_MPI_Initialized].flags & MC_FLAG_POSTFINAL);
    ck_assert(!(mc_fn_table[MC_FN_MPI_Send].flags & MC_FLAG_PREINIT));
    ck_assert(mc_fn_table[MC_FN_MPI_Address].flags & MC_FLAG_LEGACY);
    ck_assert_int_eq(mc_fn_table[MC_FN_MPI_Wtime].nparams, 0);
}
END_TEST

/* Every reference points at a parameter of the same function, every name is
 * set, and value types agree with the roles that read them. */
START_TEST(table_is_consistent)
{
    for (int f = 0; f < MC_FN_COUNT_; f++) {
        const mc_fn_desc *d = &mc_fn_table[f];
        ck_assert_ptr_nonnull(d->name);
        ck_assert(strncmp(d->name, "MPI_", 4) == 0);
        for (int i = 0; i < d->nparams; i++) {
            const mc_param_desc *p = &d->params[i];
            ck_assert_ptr_nonnull(p->name);
            ck_assert_int_lt(p->role, MC_ROLE_COUNT_);
            for (int k = 0; k < MC_MAX_REFS; k++)
                ck_assert_int_lt(p->ref[k], d->nparams);
            if (p->role == MC_ROLE_COMM)
                ck_assert_msg(p->ctype == MC_CT_COMM, "%s %s", d->name, p->name);
            if (p->role == MC_ROLE_COUNT)
                ck_assert_msg(p->ctype == MC_CT_INT || p->ctype == MC_CT_COUNT || p->ctype == MC_CT_AINT,
                              "%s %s", d->name, p->name);
            if (p->role == MC_ROLE_DEST || p->role == MC_ROLE_SOURCE || p->role == MC_ROLE_ROOT
                || p->role == MC_ROLE_STAG || p->role == MC_ROLE_RTAG)
                ck_assert_msg(p->ctype == MC_CT_INT, "%s %s", d->name, p->name);
            if (p->role == MC_ROLE_DATATYPE || p->role == MC_ROLE_DATATYPE_ANY)
                ck_assert_msg(p->ctype == MC_CT_DATATYPE, "%s %s", d->name, p->name);
            if (p->role >= MC_ROLE_SBUF && p->role <= MC_ROLE_COLLBUF_SUM)
                ck_assert_msg(p->ctype == MC_CT_PTR, "%s %s", d->name, p->name);
        }
    }
    ck_assert_str_eq(mc_role_names[MC_ROLE_SBUF], "SBUF");
    ck_assert_str_eq(mc_role_names[MC_ROLE_RBUFV], "RBUFV");
}
END_TEST

/* Every collective's buffers have roles (src/coll/shape.c finds the
 * handshake's arguments by them): the roles the argument checks must not
 * read are COLLBUF, with the count and datatype arrays they name. */
START_TEST(collective_buffers_have_roles)
{
    const mc_fn_desc *w = &mc_fn_table[MC_FN_MPI_Alltoallw];
    ck_assert_int_eq(w->params[0].role, MC_ROLE_COLLBUF);
    ck_assert_str_eq(w->params[w->params[0].ref[0]].name, "sendcounts");
    ck_assert_str_eq(w->params[w->params[0].ref[1]].name, "sendtypes");
    ck_assert_int_eq(w->params[4].role, MC_ROLE_COLLBUF);
    ck_assert_str_eq(w->params[w->params[4].ref[1]].name, "recvtypes");
    const mc_fn_desc *rs = &mc_fn_table[MC_FN_MPI_Ireduce_scatter];
    ck_assert_int_eq(rs->params[0].role, MC_ROLE_COLLBUF_SUM);
    ck_assert_str_eq(rs->params[rs->params[0].ref[0]].name, "datatype");
    const mc_fn_desc *nb = &mc_fn_table[MC_FN_MPI_Neighbor_alltoallv_init];
    ck_assert_int_eq(nb->params[0].role, MC_ROLE_COLLBUF);
    ck_assert_str_eq(nb->params[nb->params[0].ref[0]].name, "sendcounts");
    ck_assert_int_eq(mc_fn_table[MC_FN_MPI_Exscan].params[1].role, MC_ROLE_COLLBUF);
    ck_assert_int_eq(mc_fn_table[MC_FN_MPI_Alltoallw_c].params[0].role, MC_ROLE_COLLBUF);
    ck_assert_str_eq(mc_role_names[MC_ROLE_COLLBUF_SUM], "COLLBUF_SUM");
}
END_TEST

/* The large-count forms (!large, or by hand): MPI_X_c right after MPI_X,
 * with the same flags and the same parameter names and roles, counts stored
 * as MPI_Count (MPI_Type_get_envelope_c and _get_contents_c add a
 * parameter, num_large_counts / max_large_counts, and are left out). */
START_TEST(large_forms_follow_their_base)
{
    int checked = 0;
    for (int f = 1; f < MC_FN_COUNT_; f++) {
        const mc_fn_desc *d = &mc_fn_table[f], *b = &mc_fn_table[f - 1];
        size_t n = strlen(d->name);
        if (n < 3 || strcmp(d->name + n - 2, "_c") != 0 || strncmp(d->name, b->name, n - 2) != 0
            || b->name[n - 2] != '\0' || d->nparams != b->nparams)
            continue;
        ck_assert_msg(d->flags == b->flags, "%s flags", d->name);
        for (int i = 0; i < d->nparams; i++) {
            ck_assert_str_eq(d->params[i].name, b->params[i].name);
            ck_assert_msg(d->params[i].role == b->params[i].role, "%s %s", d->name, d->params[i].name);
            if (d->params[i].role == MC_ROLE_COUNT && b->params[i].ctype == MC_CT_INT)
                ck_assert_msg(d->params[i].ctype == MC_CT_COUNT, "%s %s", d->name, d->params[i].name);
        }
        checked++;
    }
    /* 120 by !large and 32 by hand in wrappers/mpi.protos. */
    ck_assert_int_ge(checked, 150);
    ck_assert_int_eq(mc_fn_table[MC_FN_MPI_Send_c].params[param(MC_FN_MPI_Send_c, "count")].ctype,
                     MC_CT_COUNT);
    ck_assert(mc_fn_table[MC_FN_MPI_Ibcast_c].params[5].role == MC_ROLE_REQ_OUT);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fn_table");
    TCase *tc = tcase_create("generated");
    tcase_add_test(tc, send_roles);
    tcase_add_test(tc, recv_and_collectives);
    tcase_add_test(tc, requests_and_flags);
    tcase_add_test(tc, table_is_consistent);
    tcase_add_test(tc, large_forms_follow_their_base);
    tcase_add_test(tc, collective_buffers_have_roles);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
