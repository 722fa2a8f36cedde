/*
 * sendpart.c - a nonblocking collective's request record (coll.h:
 * mc_coll_leave), and buffer-modified for its send part: the bytes this
 * member sends are hashed when the call returns its request and again when
 * the program completes it (runtime/bufwatch.c compares and reports).
 *
 * "Once initiated, all associated send buffers [...] should not be
 * modified [...] until the collective operation completes" (MPI-4.0 sec.
 * 6.12). MPI may read them at any moment until then, so a member that
 * refills its send buffer before MPI_Wait sends old data, new data or a
 * mix, depending on the MPI and the message sizes.
 *
 * Which bytes a member sends is parts.c's answer: MPI_Ibcast's buffer at
 * the root, the root's whole MPI_Iscatter buffer, every member's sendbuf
 * of MPI_Igather, MPI_Iallreduce, ..., the blocks of MPI_Ialltoallv's and
 * the root's MPI_Iscatterv's buffer, hashed one by one (bytes between the
 * blocks may change). Not watched: MPI_IN_PLACE (MPI reads and writes the
 * receive buffer), MPI_Ialltoallw and the neighborhood collectives (a
 * datatype per block), intercommunicator MPI_Ireduce_scatter.
 */
#include <stdlib.h>
#include "coll_internal.h"
#include "runtime.h"
#include "skipped.h"
#include "state.h"

/* The blocks of the send part, gathered (offsets from the first block). */
typedef struct {
    const void *base;
    MPI_Datatype type;
    mc_bufblock *b;
    int n, cap, bad;
} blocks;

static void add(void *ctx, const void *buf, MPI_Count count, MPI_Datatype t)
{
    blocks *bl = ctx;
    if (bl->bad || count <= 0)
        return;
    if (bl->n == 0) {
        bl->base = buf;
        bl->type = t;
    }
    if (bl->n == bl->cap) {
        int cap = bl->cap ? 2 * bl->cap : 4;
        mc_bufblock *nb = mc_realloc(bl->b, (size_t)cap * sizeof *nb);
        if (!nb) {
            bl->bad = 1;
            return;
        }
        bl->b = nb;
        bl->cap = cap;
    }
    bl->b[bl->n].disp = (MPI_Aint)((uintptr_t)buf - (uintptr_t)bl->base);
    bl->b[bl->n].count = count;
    bl->n++;
}

static void watch_send(mc_prec *p, const mc_call *c, const mc_coll_fn *f, MPI_Comm comm)
{
    mc_member m;
    if (!mc_st.cfg.check_buffers || mc_member_of(c, f, comm, &m) != 0)
        return;
    blocks bl = {0};
    if (mc_coll_part(c, f, &m, MC_PART_SEND, add, &bl) != 0 || bl.bad || bl.n == 0) {
        free(bl.b);
        return;
    }
    if (bl.n == 1) {
        /* One buffer: its byte range also serves the comparison. */
        uint64_t sum;
        if (mc_bufwatch_sum(p, bl.base, bl.b[0].count, bl.type, &sum))
            mc_bufwatch_start(p, bl.base, bl.b[0].count, bl.type, &sum);
        free(bl.b);
        return;
    }
    mc_bufwatch_start_blocks(p, bl.base, bl.type, bl.b, bl.n);
}

/* After a nonblocking collective returned its request: the engine keeps a
 * record of it, so that waiting on it is a wait the detector sees (every
 * completion call goes through the engine while it holds records). */
void mc_coll_leave(mc_call *c)
{
    if (!c->coll_key || !mc_eng_on)
        return;
    const mc_coll_fn *f = mc_coll_fn_of(c->fn);
    if (!f || f->variant != MC_VAR_NONBLOCKING || c->desc->req_out < 0)
        return;
    const MPI_Request *rp = c->vals[c->desc->req_out].p;
    if (!rp || *rp == MPI_REQUEST_NULL)
        return;
    MPI_Comm comm;
    if (f->comm_ptr)
        return;
    comm = c->vals[f->a_comm].comm;
    mc_eng_lock();
    if (c->held) {
        /* Held (held.c): the record exists, its real call comes later. */
        watch_send(c->held, c, f, comm);
        mc_eng_unlock();
        return;
    }
    mc_prec *p = mc_prec_new(*rp, c);
    if (p) {
        p->kind = MC_PR_COLL;
        p->fn = c->fn;
        p->active = 1;
        p->real = *rp;
        p->comm = comm;
        p->coll_key = c->coll_key;
        p->caller = c->caller;
        watch_send(p, c, f, comm);
    }
    mc_eng_unlock();
}
