/*
 * sendpart.c - buffer-modified for nonblocking collectives: the bytes this
 * member sends are hashed when the call returns its request and again when
 * the program completes it (runtime/bufwatch.c compares and reports).
 *
 * "Once initiated, all associated send buffers [...] should not be
 * modified [...] until the collective operation completes" (MPI-4.0 sec.
 * 6.12). MPI may read them at any moment until then, so a member that
 * refills its send buffer before MPI_Wait sends old data, new data or a
 * mix, depending on the MPI and the message sizes.
 *
 * What a member sends depends on the operation and on whether it is the
 * root (the standard's significance rules, as in record.c): MPI_Ibcast's
 * buffer at the root, the root's whole MPI_Iscatter buffer (group size x
 * sendcount elements), every member's sendbuf of MPI_Igather, MPI_Ireduce,
 * MPI_Iallreduce, ..., the blocks sendcounts and displs pick out of
 * MPI_Ialltoallv's and the root's MPI_Iscatterv's buffer (bytes between the
 * blocks may change). Not watched: MPI_IN_PLACE (the receive buffer is read
 * and written by MPI), MPI_Ialltoallw and the neighborhood collectives
 * (a datatype per block), intercommunicator MPI_Ireduce_scatter.
 */
#include <stdlib.h>
#include "coll_internal.h"
#include "runtime.h"
#include "skipped.h"
#include "state.h"

/* Displacement k of the array argument i, in elements of its datatype. */
static MPI_Aint disp_at(const mc_coll_fn *f, const mc_call *c, int i, int k)
{
    const void *a = c->vals[i].p;
    return f->large ? ((const MPI_Aint *)a)[k] : (MPI_Aint)((const int *)a)[k];
}

/* The v-variant's send part: one block per peer, n peers. */
static void watch_blocks(mc_prec *p, const mc_call *c, const mc_coll_fn *f, int n)
{
    const mc_param_desc *pd = &c->desc->params[f->a_sbuf];
    int counts = pd->ref[0], displs = pd->ref[1];
    MPI_Datatype t = c->vals[f->a_stype].type;
    MPI_Aint lb, extent;
    if (n <= 0 || !c->vals[counts].p || !c->vals[displs].p
        || PMPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS)
        return;
    mc_bufblock *b = mc_malloc((size_t)n * sizeof *b);
    if (!b)
        return;
    int m = 0;
    for (int k = 0; k < n; k++) {
        MPI_Count cnt = mc_arg_count_at(f, c, counts, k);
        if (cnt <= 0)
            continue;
        b[m].disp = disp_at(f, c, displs, k) * extent;
        b[m].count = cnt;
        m++;
    }
    if (m == 0) {
        free(b);
        return;
    }
    mc_bufwatch_start_blocks(p, c->vals[f->a_sbuf].p, t, b, m);
}

static void watch(mc_prec *p, const void *buf, MPI_Count count, MPI_Datatype t)
{
    uint64_t sum;
    if (count > 0 && mc_bufwatch_sum(p, buf, count, t, &sum))
        mc_bufwatch_start(p, buf, count, t, &sum);
}

void mc_coll_watch_send(mc_prec *p, const mc_call *c, const mc_coll_fn *f, MPI_Comm comm)
{
    if (!mc_st.cfg.check_buffers || c->invalid || f->a_sbuf < 0 || f->nbr)
        return;
    int inter = 0, rank = 0, lsize = 0, gsize = 0;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS
        || PMPI_Comm_size(comm, &lsize) != MPI_SUCCESS)
        return;
    gsize = lsize;      /* the peers a member sends to */
    if (inter && PMPI_Comm_remote_size(comm, &gsize) != MPI_SUCCESS)
        return;
    int root = f->a_root >= 0 ? c->vals[f->a_root].i : 0;
    int is_root = inter ? root == MPI_ROOT : root == rank;
    if (f->a_root >= 0 && inter && root == MPI_PROC_NULL)
        return;         /* takes no part */
    const void *sb = c->vals[f->a_sbuf].p;
    if (sb == MPI_IN_PLACE)
        return;
    MPI_Datatype st = f->a_stype >= 0 ? c->vals[f->a_stype].type : MPI_DATATYPE_NULL;
    MPI_Count scount = mc_arg_count(c, f->a_scount);
    switch (f->shape) {
    case MC_SH_BCAST:
    case MC_SH_SCATTER:
        if (is_root)
            watch(p, sb, f->shape == MC_SH_BCAST ? scount : scount * gsize, st);
        break;
    case MC_SH_SCATTERV:
        if (is_root)
            watch_blocks(p, c, f, gsize);
        break;
    case MC_SH_GATHER: case MC_SH_GATHERV: case MC_SH_REDUCE:
        /* An intercommunicator's root group receives only. */
        if (!(inter && is_root))
            watch(p, sb, scount, st);
        break;
    case MC_SH_ALLGATHER: case MC_SH_ALLGATHERV:
    case MC_SH_ALLREDUCE: case MC_SH_SCAN: case MC_SH_EXSCAN:
        watch(p, sb, scount, st);
        break;
    case MC_SH_ALLTOALL:
        watch(p, sb, scount * gsize, st);
        break;
    case MC_SH_ALLTOALLV:
        watch_blocks(p, c, f, gsize);
        break;
    case MC_SH_REDUCE_SCATTER_BLOCK:
        /* local group size x recvcount elements (record.c explains the
         * intercommunicator's vectors) */
        watch(p, sb, (MPI_Count)lsize * mc_arg_count(c, f->a_rcount), c->vals[f->a_rtype].type);
        break;
    case MC_SH_REDUCE_SCATTER:
        if (!inter) {
            MPI_Count n = 0;
            for (int k = 0; k < lsize; k++) {
                MPI_Count one = mc_arg_count_at(f, c, f->a_rcount, k);
                if (one < 0)
                    return;
                n += one;
            }
            watch(p, sb, n, c->vals[f->a_rtype].type);
        }
        break;
    default:
        break;      /* MPI_Ialltoallw: a datatype per block */
    }
}
