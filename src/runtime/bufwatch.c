/*
 * bufwatch.c - buffer-modified: the send buffer of an active send changed
 * before the send completed.
 *
 * "The sender should not modify any part of the send buffer after a
 * nonblocking send operation is called, until the send completes"
 * (MPI-4.0 sec. 3.7.2); MPI may read the buffer at any moment until then,
 * so what the receiver gets is the old content, the new one, or a mix.
 * A program that frees the request (MPI_Request_free) must still leave the
 * buffer alone until MPI is done with it, which it cannot know (seed 000:
 * a reply from the receiver is no proof).
 *
 * How: the checksum of the bytes the datatype covers (match/bufsum.c) is
 * taken when a nonblocking send (MPI_Isend and its modes) or a persistent
 * send's MPI_Start starts, and again when the program's completion call
 * completes it, or, for a freed request, when the engine sees MPI finish
 * it. The send half of MPI_Isendrecv is watched the same way, and so is
 * the send part of a nonblocking collective (src/coll/sendpart.c says which
 * bytes that is; a v-variant's blocks are hashed one by one, the gaps
 * between them may change). Turned off with --check-buffers=no.
 *
 * The receive side: that checksum travels in the send's envelope, and when
 * the program's completion call completes the matching nonblocking receive,
 * the bytes received must hash to it. They differ when the program wrote
 * the receive buffer while the receive was active and after the data came
 * (MPI_Irecv(&x, ...); x++; MPI_Wait), or when the sender changed its
 * buffer during the send. Messages of blocking sends carry no checksum:
 * hashing every blocking send would add a pass over every byte sent.
 */
#include <stdlib.h>
#include "runtime_internal.h"
#include "bufsum.h"
#include "objects.h"
#include "report.h"
#include "state.h"

int mc_bufwatch_sum(mc_prec *p, const void *buf, MPI_Count count, MPI_Datatype type, uint64_t *sum)
{
    /* One set of datatype queries serves the checksum now, the overlap
     * check and the checksum at completion (p->reg). */
    p->reg_on = mc_st.cfg.check_buffers && mc_region_of(buf, count, type, &p->reg);
    return p->reg_on && mc_bufsum_region(&p->reg, sum) == 0;
}

void mc_bufwatch_start(mc_prec *p, const void *buf, MPI_Count count, MPI_Datatype type,
                       const uint64_t *sum)
{
    p->bufsum_on = sum != NULL;
    if (!sum)
        return;
    p->buf = (void *)buf;
    p->count = count;
    p->type = type;
    p->bufsum = *sum;
}

void mc_bufwatch_start_blocks(mc_prec *p, const void *buf, MPI_Datatype type, mc_bufblock *b,
                              int n)
{
    uint64_t sum;
    MPI_Count total = 0;
    for (int k = 0; k < n; k++)
        total += b[k].count;
    if (!mc_st.cfg.check_buffers || mc_bufsum_blocks(buf, type, b, n, &sum) != 0) {
        free(b);
        return;
    }
    free(p->blocks);
    p->blocks = b;
    p->nblocks = n;
    mc_bufwatch_start(p, buf, total, type, &sum);
}

/* 1 when the buffer changed (the watch ends either way). */
static int changed(mc_prec *p, MPI_Count *bytes)
{
    if (!p->bufsum_on)
        return 0;
    p->bufsum_on = 0;
    uint64_t now;
    int rc;
    if (p->type == MPI_DATATYPE_NULL)
        return 0;
    if (p->blocks)
        rc = mc_bufsum_blocks(p->buf, p->type, p->blocks, p->nblocks, &now);
    else
        rc = p->reg_on ? mc_bufsum_region(&p->reg, &now) : mc_bufsum(p->buf, p->count, p->type, &now);
    if (rc != 0)
        return 0;
    *bytes = mc_bufsum_bytes(p->count, p->type);
    return now != p->bufsum;
}

static const char *const what =
    "the send buffer of %s (%lld bytes of data at %p) changed between the start of the "
    "operation and its completion%s. MPI may have sent the old content, the new one or a mix of both "
    "(MPI-4.0 %s)";

/* Where the standard says so: a collective's rule is sec. 6.12's. */
static const char *rule(const mc_prec *p)
{
    return p->kind == MC_PR_COLL
        ? "sec. 6.12: the send buffers of a nonblocking collective must not be modified until "
          "the operation completes"
        : "sec. 3.7.2: the buffer of a nonblocking send must not be modified until the send "
          "completes";
}

void mc_bufwatch_end(mc_prec *p, const mc_prec *op, const mc_call *c)
{
    MPI_Count bytes = 0;
    if (!changed(p, &bytes))
        return;
    mc_origin at;
    mc_request_started_at(&op->obj, &at);
    mc_report_call_origin(MC_CLASS_BUFFER_MODIFIED, c, &at, what, mc_fn_table[op->fn].name,
                          (long long)bytes, p->buf, " (completed here)", rule(p));
}

void mc_bufwatch_end_freed(mc_prec *p)
{
    MPI_Count bytes = 0;
    if (!changed(p, &bytes))
        return;
    mc_origin at, freed = {.fn = MC_FN_MPI_Request_free, .npcs = 1};
    mc_request_started_at(&p->obj, &at);
    freed.pcs[0] = (uintptr_t)p->freed_caller;
    mc_call_text calls[2];
    mc_report_fill_origin(&calls[0], &at);
    mc_report_fill_origin(&calls[1], &freed);
    calls[0].rank = calls[1].rank = mc_st.world_rank;
    mc_report_with(MC_CLASS_BUFFER_MODIFIED, NULL, p->fn, p->caller, calls, 2, what,
                   mc_fn_table[p->fn].name, (long long)bytes, p->buf,
                   " (its request freed with MPI_Request_free: the program cannot know when MPI "
                   "is done with the buffer, and a reply from the receiver is no proof)", rule(p));
}

/* Bytes the received message holds, as elements of the receive's
 * datatype; -1 when they are no whole number of them (the check is then
 * skipped, as when the signatures did not match exactly). */
static MPI_Count received_elements(const mc_prec *p)
{
    const mc_sig_msg *sig = &p->env.sig;
    MPI_Count rsize = mc_bufsum_bytes(1, p->type);
    if (sig->flags & (MC_SIG_OPAQUE | MC_SIG_PACKED | MC_SIG_OVERFLOW) || rsize <= 0)
        return -1;
    uint64_t bytes = sig->size * sig->count;
    if (bytes % (uint64_t)rsize != 0 || bytes / (uint64_t)rsize > (uint64_t)p->count)
        return -1;
    return (MPI_Count)(bytes / (uint64_t)rsize);
}

void mc_bufwatch_recv_end(mc_prec *p, const mc_prec *op, const mc_call *c)
{
    if (!mc_st.cfg.check_buffers || !p->checked || !p->env_match || p->cancelled || p->rbuf_shared
        || !(p->env.flags & MC_ENV_SUM) || p->type == MPI_DATATYPE_NULL || p->err != MPI_SUCCESS)
        return;
    MPI_Count n = received_elements(p);
    uint64_t now;
    if (n < 0 || mc_bufsum(p->buf, n, p->type, &now) != 0 || now == p->env.data_sum)
        return;
    mc_origin at;
    mc_request_started_at(&op->obj, &at);
    mc_report_call_origin(MC_CLASS_BUFFER_MODIFIED, c, &at,
                          "the receive buffer of %s (%lld bytes of data at %p) does not hold what "
                          "world rank %d sent when this call completed the receive: the program "
                          "wrote the buffer while the receive was active, or the sender changed "
                          "its send buffer during the send. MPI-4.0 sec. 3.7.2: the buffer of a "
                          "nonblocking receive must not be accessed until the receive completes",
                          mc_fn_table[op->fn].name, (long long)mc_bufsum_bytes(n, p->type), p->buf,
                          p->env.world_rank);
}

/* ---- buffer-overlap between active operations ----------------------------- */

/* Records compared with a new operation at most: the newest ones (a program
 * with thousands of requests pending pays a bounded walk per call, and an
 * overlap with an older one goes unseen). */
#define OVERLAP_WALK 64

static const char *direction(const mc_prec *p)
{
    return p->kind == MC_PR_RECV ? "receive" : "send";
}

/* Two receives into the same bytes leave them holding one message or the
 * other, which the standard does not call erroneous (MPICH's
 * pt2pt/dtype_send posts ten into one buffer, pt2pt/inactivereq one per
 * rank): neither is reported, and neither's bytes are compared with its
 * message at completion, since the other may have written them. */
static void mark_shared(mc_prec *p, mc_prec *q)
{
    p->rbuf_shared = q->rbuf_shared = 1;
}

void mc_bufwatch_overlap(const mc_call *c, mc_prec *p)
{
    if (p->kind == MC_PR_RECV)
        p->rbuf_shared = 0;     /* a persistent receive starts afresh */
    if (!mc_st.cfg.check_buffers || (p->kind != MC_PR_SEND && p->kind != MC_PR_RECV)
        || p->type == MPI_DATATYPE_NULL)
        return;
    /* A send's range was found with its checksum (mc_bufwatch_sum). */
    if (p->kind == MC_PR_RECV)
        p->reg_on = mc_region_of(p->buf, p->count, p->type, &p->reg);
    if (!p->reg_on)
        return;
    int walked = 0;
    for (mc_prec *q = mc_prec_newest(); q && walked < OVERLAP_WALK; q = q->live_next, walked++) {
        /* Two sends only read: only a send and a receive sharing bytes is
         * reported (two receives: mark_shared). */
        if (q == p || !q->active || !q->reg_on || (p->kind == MC_PR_SEND && q->kind == MC_PR_SEND)
            || q->reg.hi <= p->reg.lo || p->reg.hi <= q->reg.lo)
            continue;
        MPI_Aint bytes = 0;
        if (mc_region_overlap(&p->reg, &q->reg, &bytes) != 1)
            continue;
        if (p->kind == q->kind) {
            mark_shared(p, q);
            continue;
        }
        mc_origin at;
        mc_request_started_at(&q->obj, &at);
        mc_report_call_origin(MC_CLASS_BUFFER_OVERLAP, c, &at,
                              "the %s buffer of this call shares %lld bytes of data with the %s "
                              "buffer of %s, which is still active (shown second): %s (MPI-4.0 "
                              "sec. 3.7.2: a buffer of an active operation must not be accessed "
                              "by another operation that writes it or that it writes)",
                              direction(p), (long long)bytes, direction(q), mc_fn_table[q->fn].name,
                              "a receive writes bytes that a send may still be reading");
        return;
    }
}

/* A blocking receive (p, on the caller's stack) wrote its buffer: active
 * receives into the same bytes may now hold its message (mark_shared). */
void mc_bufwatch_recv_wrote(mc_prec *p)
{
    if (!mc_st.cfg.check_buffers || p->type == MPI_DATATYPE_NULL)
        return;
    int walked = 0, any = 0;
    for (mc_prec *q = mc_prec_newest(); q && walked < OVERLAP_WALK && !any; q = q->live_next, walked++)
        any = q->active && q->reg_on && q->kind == MC_PR_RECV;
    if (!any || !mc_region_of(p->buf, p->count, p->type, &p->reg))
        return;
    walked = 0;
    for (mc_prec *q = mc_prec_newest(); q && walked < OVERLAP_WALK; q = q->live_next, walked++) {
        MPI_Aint bytes = 0;
        if (q != p && q->active && q->reg_on && q->kind == MC_PR_RECV
            && q->reg.lo < p->reg.hi && p->reg.lo < q->reg.hi
            && mc_region_overlap(&p->reg, &q->reg, &bytes) == 1)
            mark_shared(p, q);
    }
}
