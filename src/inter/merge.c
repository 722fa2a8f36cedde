/*
 * merge.c - calls that make a communicator from an intercommunicator:
 * MPI_Intercomm_merge's high flags before the call, and after it and after
 * MPI_Comm_dup, MPI_Comm_create and MPI_Comm_split of an
 * intercommunicator, whether every process of both groups got the same
 * kind of outcome (seed 001). Both run as one reduction on the
 * intercommunicator's handshake communicator (the merge of its shadow,
 * src/coll/commid.c), where both groups meet, with fields per group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inter_internal.h"
#include "report.h"
#include "skipped.h"
#include "state.h"

/* Fields + group (0, 1). */
enum { F_HIGH = 0, F_HIGH_W1 = 2, F_HIGH_W0 = 4 };       /* before MPI_Intercomm_merge */
enum { F_OK = 0, F_OKW = 2, F_FAILW = 4, F_NEWHASH = 6, F_LEADER_OUT = 7 }; /* after */

/* MPICH before 4.2 gives MPI_Comm_split of an intercommunicator a broken
 * result when rank 0 of a group is left out (MPI_UNDEFINED): the members
 * exchange a wrong context id, and every collective on the new
 * intercommunicator hangs (pmodels/mpich#6878, fixed by #6880). The
 * program may never run one; the checker's shadow and merge would. */
static int mpi_breaks_split_without_leader(void)
{
#if defined(MPICH_NUMVERSION) && !defined(OPEN_MPI)
    return MPICH_NUMVERSION < 40200000;
#else
    return 0;
#endif
}

typedef struct {
    MPI_Comm flat;
    int group, flat_rank;
    MPI_Comm comm;
} inter_comm;

/* The intercommunicator's handshake communicator; 0 when it has none. */
static int inter_of(MPI_Comm comm, inter_comm *ic)
{
    mc_eng_lock();
    mc_pcomm *pc = mc_pcomm_get(comm);
    int ok = pc && pc->is_inter && !pc->coll_off && pc->flat != MPI_COMM_NULL;
    if (ok) {
        ic->flat = pc->flat;
        ic->group = pc->group;
        ic->flat_rank = pc->flat_rank;
        ic->comm = comm;
    }
    mc_eng_unlock();
    return ok;
}

/* "world ranks 0-1" of group g (0: the group holding the lowest world rank). */
static void group_text(const inter_comm *ic, int g, char *buf, size_t len)
{
    int n = 0;
    MPI_Group grp;
    int remote = g != ic->group;
    snprintf(buf, len, "?");
    if ((remote ? PMPI_Comm_remote_group(ic->comm, &grp) : PMPI_Comm_group(ic->comm, &grp)) != MPI_SUCCESS)
        return;
    int32_t *r = ic_world_ranks(grp, &n);
    PMPI_Group_free(&grp);
    if (r)
        ic_ranks_text(r, n, buf, len);
    free(r);
}

void ic_merge_enter(mc_call *c)
{
    inter_comm ic;
    if (!mc_eng_on || mc_st.finalizing || !inter_of(c->vals[0].comm, &ic))
        return;
    int high = c->vals[1].i != 0;
    ic_rec r;
    ic_rec_init(&r);
    ic_rec_put(&r, F_HIGH + ic.group, high);
    ic_rec_put(&r, (high ? F_HIGH_W1 : F_HIGH_W0) + ic.group, mc_st.world_rank);
    if (ic_reduce(c, &r, ic.flat) != 0 || ic.flat_rank != 0)
        return;
    for (int g = 0; g < 2; g++) {
        int64_t w1, w1b, w0, w0b;
        if (ic_rec_uniform(&r, F_HIGH + g) || !ic_rec_get(&r, F_HIGH_W1 + g, &w1, &w1b)
            || !ic_rec_get(&r, F_HIGH_W0 + g, &w0, &w0b))
            continue;
        char members[128];
        group_text(&ic, g, members, sizeof members);
        mc_report_call(MC_CLASS_INTERCOMM_MISMATCH, c,
                       "MPI_Intercomm_merge: the processes of one group pass different high values (world "
                       "ranks %s: world rank %lld passes true, world rank %lld false). Every process of a "
                       "group must pass the same value (MPI-3.1 sec. 6.6.2); the order of the merged "
                       "communicator's ranks is then undefined",
                       members, (long long)w1, (long long)w0);
    }
}

/* The communicator the call made (its COMM_OUT argument). */
static MPI_Comm made_comm(const mc_call *c)
{
    for (int i = 0; i < c->desc->nparams; i++)
        if (c->desc->params[i].role == MC_ROLE_COMM_OUT)
            return c->vals[i].p ? *(const MPI_Comm *)c->vals[i].p : MPI_COMM_NULL;
    return MPI_COMM_NULL;
}

/* Where the merge put each process: the ranks in merged of group 0's
 * ranks, then of group 1's, hashed. Every process that sees the merged
 * ranks in one order computes the same; no world ranks, which repeat
 * across the jobs of MPI_Comm_spawn. */
static int64_t merged_order_hash(MPI_Comm inter, MPI_Comm merged, int group)
{
    MPI_Group mg, g[2];
    int n[2] = {0, 0};
    if (PMPI_Comm_group(merged, &mg) != MPI_SUCCESS)
        return 0;
    PMPI_Comm_group(inter, &g[group]);
    PMPI_Comm_remote_group(inter, &g[1 - group]);
    PMPI_Group_size(g[0], &n[0]);
    PMPI_Group_size(g[1], &n[1]);
    int total = n[0] + n[1];
    int *in = mc_malloc((size_t)(total + 1) * sizeof *in), *out = mc_malloc((size_t)(total + 1) * sizeof *out);
    int32_t *pos = mc_malloc((size_t)(total + 1) * sizeof *pos);
    int64_t h = 0;
    if (in && out && pos) {
        for (int k = 0, at = 0; k < 2; at += n[k], k++) {
            for (int i = 0; i < n[k]; i++)
                in[i] = i;
            if (PMPI_Group_translate_ranks(g[k], n[k], in, mg, out) != MPI_SUCCESS)
                for (int i = 0; i < n[k]; i++)
                    out[i] = -1;
            for (int i = 0; i < n[k]; i++)
                pos[at + i] = out[i];
        }
        h = ic_ranks_hash(pos, total);
    }
    free(in);
    free(out);
    free(pos);
    PMPI_Group_free(&g[0]);
    PMPI_Group_free(&g[1]);
    PMPI_Group_free(&mg);
    return h;
}

void ic_from_inter_leave(mc_call *c, int ok)
{
    inter_comm ic;
    if (!mc_eng_on || mc_st.finalizing || !inter_of(c->vals[0].comm, &ic))
        return;
    ic_rec r;
    ic_rec_init(&r);
    ic_rec_put(&r, F_OK + ic.group, ok);
    ic_rec_put(&r, (ok ? F_OKW : F_FAILW) + ic.group, mc_st.world_rank);
    MPI_Comm nc = ok ? made_comm(c) : MPI_COMM_NULL;
    if (c->fn == MC_FN_MPI_Intercomm_merge && nc != MPI_COMM_NULL)
        ic_rec_put(&r, F_NEWHASH, merged_order_hash(c->vals[0].comm, nc, ic.group));
    if (c->fn == MC_FN_MPI_Comm_split && ok && nc == MPI_COMM_NULL) {
        int lr = -1;
        PMPI_Comm_rank(c->vals[0].comm, &lr);
        if (lr == 0)
            ic_rec_put(&r, F_LEADER_OUT, 1);
    }
    if (ic_reduce(c, &r, ic.flat) != 0)
        return;
    int64_t a0, b0, a1, b1;
    if (mpi_breaks_split_without_leader() && ic_rec_uniform(&r, F_LEADER_OUT))
        c->new_comm_unsafe = 1;     /* counted as unchecked where it was made; not the program's error */
    int has0 = ic_rec_get(&r, F_OK, &a0, &b0), has1 = ic_rec_get(&r, F_OK + 1, &a1, &b1);
    int split_ok = has0 && has1 && a0 == b0 && a1 == b1 && a0 == a1;
    int order_ok = c->fn != MC_FN_MPI_Intercomm_merge || !split_ok || !a0 || ic_rec_uniform(&r, F_NEWHASH);
    if (split_ok && order_ok)
        return;
    c->new_comm_unsafe = 1;      /* every process knows: none makes a collective over the new one */
    if (ic.flat_rank != 0)
        return;
    char what[600] = "", members[128];
    if (!split_ok) {
        for (int g = 0; g < 2; g++) {
            int64_t lo, hi, w, wb;
            size_t at = strlen(what);
            group_text(&ic, g, members, sizeof members);
            if (!ic_rec_get(&r, F_OK + g, &lo, &hi))
                continue;
            if (lo == hi)
                snprintf(what + at, sizeof what - at, "%sin the group of world ranks %s every process got %s",
                         at ? "; " : "", members, hi ? "the new communicator" : "an error");
            else if (ic_rec_get(&r, F_FAILW + g, &w, &wb))
                snprintf(what + at, sizeof what - at, "%sin the group of world ranks %s world rank %lld%s got an "
                         "error and the others the new communicator", at ? "; " : "", members, (long long)w,
                         w == wb ? "" : " and others");
        }
    } else {
        snprintf(what, sizeof what, "every process got the merged communicator, but they do not see its "
                 "ranks in one order (the high flags differ within a group)");
    }
    mc_report_call(MC_CLASS_INTERCOMM_NONUNIFORM, c,
                   "%s on an intercommunicator ended differently across its processes: %s. %s",
                   c->desc->name, what,
                   split_ok ? "A rank of the new communicator names different processes at different members"
                            : "A process that got the new communicator waits forever in its first collective "
                              "use with one that did not");
}
