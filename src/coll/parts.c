/*
 * parts.c - the bytes a member of a collective sends and receives, as
 * blocks of (buffer, count, datatype), for the buffer checks: a
 * nonblocking collective's send part must not change until it completes
 * (sendpart.c), and the send and receive parts of one call must not
 * overlap (overlap.c).
 *
 * Which buffers a member's parts are follows the standard's significance
 * rules (as record.c does for the handshake): MPI_Bcast sends the root's
 * buffer and receives into the others'; MPI_Gather's root receives group
 * size x recvcount elements, MPI_Scatter's root sends as many; the
 * v-variants' parts are one block per peer at its displacement (bytes
 * between blocks belong to neither part); an intercommunicator's root
 * group only sends or only receives, and its MPI_PROC_NULL members take no
 * part. MPI_IN_PLACE gives no block: MPI then reads and writes the other
 * buffer.
 */
#include "coll_internal.h"

int mc_member_of(const mc_call *c, const mc_coll_fn *f, MPI_Comm comm, mc_member *m)
{
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &m->inter) != MPI_SUCCESS
        || PMPI_Comm_rank(comm, &m->rank) != MPI_SUCCESS || PMPI_Comm_size(comm, &m->lsize) != MPI_SUCCESS)
        return -1;
    m->gsize = m->lsize;
    if (m->inter && PMPI_Comm_remote_size(comm, &m->gsize) != MPI_SUCCESS)
        return -1;
    m->rooted = f->a_root >= 0;
    int root = m->rooted ? c->vals[f->a_root].i : 0;
    m->is_root = m->inter ? root == MPI_ROOT : root == m->rank;
    m->inactive = m->rooted && m->inter && root == MPI_PROC_NULL;
    return 0;
}

/* Displacement k of the array argument i, in elements of its datatype. */
static MPI_Aint disp_at(const mc_coll_fn *f, const mc_call *c, int i, int k)
{
    const void *a = c->vals[i].p;
    return f->large ? ((const MPI_Aint *)a)[k] : (MPI_Aint)((const int *)a)[k];
}

/* The blocks of a v-variant buffer argument b: counts[k] elements at
 * displs[k] for each of n peers (empty blocks left out). */
static int blocks_v(const mc_call *c, const mc_coll_fn *f, int b, int n, mc_block_fn fn, void *ctx)
{
    const mc_param_desc *pd = &c->desc->params[b];
    int counts = pd->ref[0], displs = pd->ref[1], type = pd->ref[2];
    MPI_Datatype t = c->vals[type].type;
    MPI_Aint lb, extent;
    if (!c->vals[counts].p || !c->vals[displs].p || PMPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS)
        return -1;
    for (int k = 0; k < n; k++) {
        MPI_Count cnt = mc_arg_count_at(f, c, counts, k);
        if (cnt > 0)
            fn(ctx, (const char *)c->vals[b].p + disp_at(f, c, displs, k) * extent, cnt, t);
    }
    return 0;
}

static int send_part(const mc_call *c, const mc_coll_fn *f, const mc_member *m, mc_block_fn fn,
                     void *ctx)
{
    const void *sb = c->vals[f->a_sbuf].p;
    MPI_Datatype st = f->a_stype >= 0 ? c->vals[f->a_stype].type : MPI_DATATYPE_NULL;
    MPI_Count scount = mc_arg_count(c, f->a_scount);
    if (sb == MPI_IN_PLACE)
        return 0;
    switch (f->shape) {
    case MC_SH_BCAST:
        if (m->is_root)
            fn(ctx, sb, scount, st);
        return 0;
    case MC_SH_SCATTER:
        if (m->is_root)
            fn(ctx, sb, scount * m->gsize, st);
        return 0;
    case MC_SH_SCATTERV:
        return m->is_root ? blocks_v(c, f, f->a_sbuf, m->gsize, fn, ctx) : 0;
    case MC_SH_GATHER: case MC_SH_GATHERV: case MC_SH_REDUCE:
        if (!(m->inter && m->is_root))      /* the root group receives only */
            fn(ctx, sb, scount, st);
        return 0;
    case MC_SH_ALLGATHER: case MC_SH_ALLGATHERV:
    case MC_SH_ALLREDUCE: case MC_SH_SCAN: case MC_SH_EXSCAN:
        fn(ctx, sb, scount, st);
        return 0;
    case MC_SH_ALLTOALL:
        fn(ctx, sb, scount * m->gsize, st);
        return 0;
    case MC_SH_ALLTOALLV:
        return blocks_v(c, f, f->a_sbuf, m->gsize, fn, ctx);
    case MC_SH_REDUCE_SCATTER_BLOCK:
        /* local group size x recvcount elements (record.c explains the
         * intercommunicator's vectors) */
        fn(ctx, sb, (MPI_Count)m->lsize * mc_arg_count(c, f->a_rcount), c->vals[f->a_rtype].type);
        return 0;
    case MC_SH_REDUCE_SCATTER: {
        if (m->inter)
            return -1;
        MPI_Count n = 0;
        for (int k = 0; k < m->lsize; k++) {
            MPI_Count one = mc_arg_count_at(f, c, f->a_rcount, k);
            if (one < 0)
                return -1;
            n += one;
        }
        fn(ctx, sb, n, c->vals[f->a_rtype].type);
        return 0;
    }
    default:
        return -1;      /* MPI_Alltoallw: a datatype per block */
    }
}

static int recv_part(const mc_call *c, const mc_coll_fn *f, const mc_member *m, mc_block_fn fn,
                     void *ctx)
{
    if (f->shape == MC_SH_BCAST) {
        if (!m->is_root)
            fn(ctx, c->vals[f->a_sbuf].p, mc_arg_count(c, f->a_scount), c->vals[f->a_stype].type);
        return 0;
    }
    if (f->a_rbuf < 0)
        return -1;
    const void *rb = c->vals[f->a_rbuf].p;
    MPI_Datatype rt = f->a_rtype >= 0 ? c->vals[f->a_rtype].type : MPI_DATATYPE_NULL;
    MPI_Count rcount = mc_arg_count(c, f->a_rcount);
    if (rb == MPI_IN_PLACE)
        return 0;
    switch (f->shape) {
    case MC_SH_GATHER:
        if (m->is_root)
            fn(ctx, rb, rcount * m->gsize, rt);
        return 0;
    case MC_SH_GATHERV:
        return m->is_root ? blocks_v(c, f, f->a_rbuf, m->gsize, fn, ctx) : 0;
    case MC_SH_SCATTER: case MC_SH_SCATTERV:
        if (!(m->inter && m->is_root))      /* the root group sends only */
            fn(ctx, rb, rcount, rt);
        return 0;
    case MC_SH_ALLGATHER: case MC_SH_ALLTOALL:
        fn(ctx, rb, rcount * m->gsize, rt);
        return 0;
    case MC_SH_ALLGATHERV: case MC_SH_ALLTOALLV:
        return blocks_v(c, f, f->a_rbuf, m->gsize, fn, ctx);
    case MC_SH_REDUCE:
        if (m->is_root)
            fn(ctx, rb, rcount, rt);
        return 0;
    case MC_SH_EXSCAN:
        if (!m->inter && m->rank == 0)
            return 0;       /* not significant at rank 0 */
        fn(ctx, rb, rcount, rt);
        return 0;
    case MC_SH_ALLREDUCE: case MC_SH_SCAN: case MC_SH_REDUCE_SCATTER_BLOCK:
        fn(ctx, rb, rcount, rt);
        return 0;
    case MC_SH_REDUCE_SCATTER:
        if (m->inter)
            return -1;
        fn(ctx, rb, mc_arg_count_at(f, c, f->a_rcount, m->rank), rt);
        return 0;
    default:
        return -1;
    }
}

int mc_coll_part(const mc_call *c, const mc_coll_fn *f, const mc_member *m, int side,
                 mc_block_fn fn, void *ctx)
{
    if (c->invalid || f->nbr || f->a_sbuf < 0 || m->inactive)
        return -1;
    return side == MC_PART_SEND ? send_part(c, f, m, fn, ctx) : recv_part(c, f, m, fn, ctx);
}

/* ---- the bytes of a call, for the hang watch ------------------------------ */

static void add_bytes(void *ctx, const void *buf, MPI_Count count, MPI_Datatype t)
{
    (void)buf;
    MPI_Count size = 0;
    if (PMPI_Type_size_x(t, &size) == MPI_SUCCESS && size > 0 && count > 0)
        *(uint64_t *)ctx += (uint64_t)size * (uint64_t)count;
}

int mc_coll_per_peer(const mc_coll_fn *f)
{
    switch (f->shape) {
    case MC_SH_GATHERV: case MC_SH_SCATTERV: case MC_SH_ALLGATHERV: case MC_SH_ALLTOALLV:
    case MC_SH_ALLTOALLW: case MC_SH_REDUCE_SCATTER: case MC_SH_NEIGHBOR:
        return 1;
    default:
        return 0;
    }
}

uint64_t mc_coll_own_bytes(const mc_call *c, const mc_coll_fn *f, MPI_Comm comm)
{
    mc_member m;
    uint64_t bytes = 0;
    if (mc_member_of(c, f, comm, &m) != 0 || mc_coll_part(c, f, &m, MC_PART_SEND, add_bytes, &bytes) != 0
        || mc_coll_part(c, f, &m, MC_PART_RECV, add_bytes, &bytes) != 0)
        return 0;
    return bytes;
}

uint64_t mc_coll_volume(const hs_t *h)
{
    /* Per-peer counts: the record holds a hash of them, so this member's
     * own blocks, taken at the call (none for MPI_Alltoallw and the
     * neighborhood collectives: no credit). */
    if (mc_coll_per_peer(h->f))
        return h->own_bytes;
    /* One part a peer: the largest any member sends and receives. */
    uint64_t bytes = 0;
    for (int g = 0; g < (h->inter ? 2 : 1); g++) {
        int64_t lo, hi;
        if (mc_collrec_get(&h->all, MC_CR_G(MC_CR_SEND_BYTES, g), &lo, &hi) && hi > 0)
            bytes += (uint64_t)hi;
        if (mc_collrec_get(&h->all, MC_CR_G(MC_CR_RECV_BYTES, g), &lo, &hi) && hi > 0)
            bytes += (uint64_t)hi;
    }
    return bytes * (uint64_t)(h->npeers > 0 ? h->npeers : 1);
}
