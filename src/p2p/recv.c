/*
 * recv.c - posting receives with their mirrors, the deferred-receive queues
 * (MPI_ANY_SOURCE), and the progress of one request record.
 *
 * RATIONALE: the mirror of a receive is an MPI_Irecv on the shadow with the
 * receive's own source and tag, posted in the same order as the real one, so
 * MPI pairs envelopes with mirrors as it pairs messages with receives. For
 * MPI_ANY_SOURCE that equality breaks (which source wins a race can differ
 * between the two communicators), so such a receive reaches MPI only once its
 * mirror took an envelope, forced onto that envelope's source and tag; any
 * later receive on the communicator that could take the same messages waits
 * in the queue behind it, keeping the real posting order the mirrors' order.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "p2p.h"
#include "p2p_internal.h"
#include "hooks.h"         /* a held collective's progress (coll/held.c) */
#include "mc_pmpi_count.h"
#include "state.h"

static mc_pcomm *dq_comms;      /* communicators with deferred receives */

int mc_recv_pending_deferred(void) { return dq_comms != NULL; }

/* Whether a held-back receive may have become ready to post since the
 * queues were last walked: one joined a queue, a mirror completed, or one
 * was cancelled. Otherwise a walk (drive_comm) posts nothing, and the
 * services of a poll loop skip it. */
static int dq_changed = 1;
void mc_recv_queue_changed(void) { dq_changed = 1; }

static int real_irecv(mc_prec *p, int source, int tag, MPI_Request *out)
{
    return mc_pmpi_Irecv(p->buf, p->count, p->type, source, tag, p->comm, out);
}

static int overlaps(const mc_pcomm *pc, int source, int tag)
{
    for (const mc_prec *q = pc->dq_head; q; q = q->dq_next) {
        if (q->peer != MPI_ANY_SOURCE && source != MPI_ANY_SOURCE && q->peer != source)
            continue;
        if (q->tag != MPI_ANY_TAG && tag != MPI_ANY_TAG && q->tag != tag)
            continue;
        return 1;
    }
    return 0;
}

/* A receive its caller waits for in the same call. */
static int blocking_receive(const mc_call *c)
{
    if (!c)
        return 0;
    switch (c->fn) {
    case MC_FN_MPI_Recv: case MC_FN_MPI_Recv_c: case MC_FN_MPI_Sendrecv: case MC_FN_MPI_Sendrecv_c:
    case MC_FN_MPI_Sendrecv_replace: case MC_FN_MPI_Sendrecv_replace_c:
        return 1;
    default:
        return 0;
    }
}

int mc_recv_post(mc_call *c, mc_pcomm *pc, void *buf, MPI_Count count, MPI_Datatype type,
                 int source, int tag, mc_prec *p)
{
    p->kind = MC_PR_RECV;
    p->fn = c ? c->fn : p->fn;
    p->caller = c ? c->caller : p->caller;
    p->fortran = c ? c->fortran : p->fortran;
    p->comm = pc->comm;
    p->peer = source;
    p->tag = tag;
    p->buf = buf;
    p->count = count;
    p->type = type;
    p->checked = 0;
    p->env_match = 0;
    p->cancelled = 0;
    p->err = MPI_SUCCESS;
    p->mirror_cancelled = 0;
    p->greq_done = 0;
    p->active = 1;
    memset(&p->env, 0, sizeof p->env);
    if (source == MPI_ANY_SOURCE)
        mc_sync_wildcard();
    p->dep_posted = mc_sync_posting(pc);
    mc_recv_drive();
    int deferred = source == MPI_ANY_SOURCE || overlaps(pc, source, tag);
    p->mirror = MPI_REQUEST_NULL;
    if (!deferred) {
        /* The real receive first: one MPI refuses gets no mirror, which
         * would otherwise take the envelope of the next receive's message. */
        p->deferred = 0;
        int rc;
        if (p->persistent && !p->greq) {
            p->real = p->user;
            rc = PMPI_Start(&p->real);
        } else {
            rc = real_irecv(p, source, tag, &p->real);
        }
        if (rc == MPI_SUCCESS
            && PMPI_Irecv(&p->env, (int)sizeof p->env, MPI_BYTE, source, tag, pc->shadow, &p->mirror) != MPI_SUCCESS)
            p->mirror = MPI_REQUEST_NULL;
        if (p->mirror != MPI_REQUEST_NULL && mc_eng_strict)
            mc_notice_posted(pc, p, blocking_receive(c));
        return rc;
    }
    if (PMPI_Irecv(&p->env, (int)sizeof p->env, MPI_BYTE, source, tag, pc->shadow, &p->mirror) != MPI_SUCCESS)
        p->mirror = MPI_REQUEST_NULL;
    mc_notice_comm_off(pc);     /* a wildcard, or a receive behind one */
    p->deferred = 1;
    p->real = MPI_REQUEST_NULL;
    p->dq_next = NULL;
    dq_changed = 1;
    if (pc->dq_tail)
        pc->dq_tail->dq_next = p;
    else
        pc->dq_head = p;
    pc->dq_tail = p;
    if (!pc->dq_listed) {
        pc->dq_listed = 1;
        pc->dq_next = dq_comms;
        dq_comms = pc;
    }
    return MPI_SUCCESS;
}

/* The mirror of p completed with st: count it, check the envelope. */
static void mirror_done(mc_prec *p, const MPI_Status *st)
{
    int cancelled = 0;
    dq_changed = 1;
    PMPI_Test_cancelled(st, &cancelled);
    if (cancelled) {
        p->mirror_cancelled = 1;
        return;
    }
    mc_env_received++;
    if (!p->checked) {
        p->checked = 1;
        p->status.MPI_SOURCE = st->MPI_SOURCE;
        p->status.MPI_TAG = st->MPI_TAG;
        p->env_match = mc_env_check(&p->env, p, NULL, p->comm, st->MPI_SOURCE, p->type, p->count);
        if (p->dep_posted)
            mc_sync_matched(p);
    }
}

/* Posts the real receives of pc's queue whose turn has come:
 * - one whose mirror took an envelope, forced onto that envelope's source
 *   and tag: any earlier receive still waiting could not match that
 *   envelope (its mirror, posted first, would have taken it), so the forced
 *   receive takes exactly the message of its envelope;
 * - a specific-source one at the head of the queue, as it is: nothing
 *   before it is left to compete for its messages.
 * A wildcard-source one whose mirror has nothing yet keeps its place. */
#define DRIVE_BATCH 64

/* Tests the mirrors of the queue in one PMPI_Testsome per DRIVE_BATCH
 * records: every MPI test call runs the progress engine (and, with Open
 * MPI on oversubscribed cores, yields the CPU), so testing them one by one
 * made each service cost as many progress calls as held-back receives. */
static void test_queued_mirrors(mc_pcomm *pc)
{
    mc_prec *batch[DRIVE_BATCH];
    MPI_Request reqs[DRIVE_BATCH];
    MPI_Status sts[DRIVE_BATCH];
    int idx[DRIVE_BATCH];
    mc_prec *q = pc->dq_head;
    while (q) {
        int n = 0;
        for (; q && n < DRIVE_BATCH; q = q->dq_next)
            if (!q->cancelled && q->mirror != MPI_REQUEST_NULL) {
                batch[n] = q;
                reqs[n++] = q->mirror;
            }
        if (!n)
            return;
        int out = 0, rc;
        if (n == 1) {
            /* MPI_Test is the cheaper call (hpcc's MPIRandomAccess polls
             * one wildcard receive a million times). */
            idx[0] = 0;
            rc = PMPI_Test(&reqs[0], &out, &sts[0]);
        } else {
            /* On MPI_ERR_IN_STATUS the completed ones are still listed. */
            rc = PMPI_Testsome(n, reqs, &out, idx, sts);
        }
        if ((rc != MPI_SUCCESS && rc != MPI_ERR_IN_STATUS) || out == MPI_UNDEFINED)
            continue;
        for (int k = 0; k < out; k++) {
            mc_prec *r = batch[idx[k]];
            r->mirror = MPI_REQUEST_NULL;
            mirror_done(r, &sts[k]);
        }
    }
}

static void drive_comm(mc_pcomm *pc, int walk)
{
    test_queued_mirrors(pc);
    if (!walk && !dq_changed)
        return;
    mc_prec **pp = &pc->dq_head, *prev = NULL;
    while (*pp) {
        mc_prec *q = *pp;
        int post = 0, source = q->peer, tag = q->tag;
        if (q->cancelled || q->mirror_cancelled) {
            q->cancelled = 1;
            post = 1;
        } else if (q->mirror == MPI_REQUEST_NULL) {
            post = 1;
            source = q->status.MPI_SOURCE;
            tag = q->status.MPI_TAG;
        } else if (q->peer != MPI_ANY_SOURCE && q == pc->dq_head) {
            post = 1;
        }
        if (!post) {
            prev = q;
            pp = &q->dq_next;
            continue;
        }
        *pp = q->dq_next;
        if (pc->dq_tail == q)
            pc->dq_tail = prev;
        q->deferred = 0;
        if (!q->cancelled) {
            int rc = real_irecv(q, source, tag, &q->real);
            if (rc != MPI_SUCCESS) {
                q->real = MPI_REQUEST_NULL;
                q->err = rc;        /* reported at the application's completion call */
            }
        }
    }
}

/* The application frees a communicator with receives still held back on
 * it (MPI lets pending operations finish after the free): they go to MPI
 * now, while the handle is valid. One whose mirror has an envelope is forced
 * as usual; the others are posted as given and are no longer paired with an
 * envelope (no type check, the mirror is left to take its envelope). */
void mc_recv_comm_freeing(mc_pcomm *pc)
{
    drive_comm(pc, 1);
    while (pc->dq_head) {
        mc_prec *q = pc->dq_head;
        pc->dq_head = q->dq_next;
        q->deferred = 0;
        q->checked = 1;     /* unpaired: never compared */
        if (!q->cancelled) {
            int rc = real_irecv(q, q->peer, q->tag, &q->real);
            if (rc != MPI_SUCCESS) {
                q->real = MPI_REQUEST_NULL;
                q->err = rc;
            }
        }
    }
    pc->dq_tail = NULL;
    if (pc->dq_listed) {
        for (mc_pcomm **pp = &dq_comms; *pp; pp = &(*pp)->dq_next)
            if (*pp == pc) {
                *pp = pc->dq_next;
                break;
            }
        pc->dq_listed = 0;
    }
    mc_notice_comm_freed(pc);
}

void mc_recv_drive(void)
{
    mc_pcomm **pp = &dq_comms;
    int walk = dq_changed;
    dq_changed = 0;
    while (*pp) {
        mc_pcomm *pc = *pp;
        drive_comm(pc, walk);
        if (!pc->dq_head) {
            pc->dq_listed = 0;
            *pp = pc->dq_next;
        } else {
            pp = &pc->dq_next;
        }
    }
}

/* Cancels a receive the engine holds (MPI_Cancel). The mirror goes first:
 * if it already took an envelope the message is on its way and the real
 * receive is left to get it (a cancellation may fail); otherwise the real
 * receive is cancelled, or, when deferred, never posted. */
void mc_recv_cancel(mc_prec *p)
{
    mc_pcomm *pc = mc_pcomm_get(p->comm);
    if (pc)
        mc_notice_comm_off(pc);     /* later mirrors take earlier envelopes than counted */
    mc_sync_wildcard();             /* the same for the model's matches */
    if (p->mirror != MPI_REQUEST_NULL) {
        MPI_Status st;
        PMPI_Cancel(&p->mirror);
        PMPI_Wait(&p->mirror, &st);
        mirror_done(p, &st);
    }
    if (!p->mirror_cancelled)
        return;
    if (p->deferred) {
        p->cancelled = 1;
        dq_changed = 1;
        mc_recv_drive();
    } else if (p->real != MPI_REQUEST_NULL) {
        PMPI_Cancel(&p->real);
    }
}

/* A real receive completed although its mirror was cancelled (the cancel of
 * the real one failed): its envelope is coming, take it in. */
static void mirror_catch_up(mc_prec *p, const MPI_Status *st)
{
    int cancelled = 0;
    PMPI_Test_cancelled(st, &cancelled);
    if (cancelled || !p->mirror_cancelled || st->MPI_SOURCE < 0)
        return;
    mc_pcomm *pc = mc_pcomm_get(p->comm);
    if (!pc)
        return;
    p->mirror_cancelled = 0;
    PMPI_Recv(&p->env, (int)sizeof p->env, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, pc->shadow,
              MPI_STATUS_IGNORE);
    mc_env_received++;
    p->checked = 1;
    p->env_match = mc_env_check(&p->env, p, NULL, p->comm, st->MPI_SOURCE, p->type, p->count);
}


/* MPI_Isendrecv: ready when both halves are; then the engine completes
 * them and the generalized request the application holds. */
static int pair_progress(mc_prec *p)
{
    if (p->greq_done)
        return 1;
    int a = p->pair_s ? mc_prec_progress(p->pair_s) : 1;
    int b = p->pair_r ? mc_prec_progress(p->pair_r) : 1;
    if (!a || !b)
        return 0;
    /* The halves' records stay with the pair until the program completes
     * it: their buffers are compared then (buffer-modified). */
    if (p->pair_s) {
        if (p->pair_s->real != MPI_REQUEST_NULL)
            PMPI_Wait(&p->pair_s->real, MPI_STATUS_IGNORE);
        if (p->pair_s->slot)
            mc_env_release(p->pair_s->slot);
        p->pair_s->slot = NULL;
        p->pair_s->active = 0;
    }
    if (p->pair_r) {
        if (p->pair_r->real != MPI_REQUEST_NULL)
            PMPI_Wait(&p->pair_r->real, &p->status);
        p->pair_r->active = 0;
    }
    free(p->tmpbuf);
    p->tmpbuf = NULL;
    p->greq_done = 1;
    PMPI_Grequest_complete(p->user);
    return 1;
}

int mc_prec_progress(mc_prec *p)
{
    if (!p->active)
        return 1;
    if (p->kind == MC_PR_PAIR)
        return pair_progress(p);
    if (p->kind == MC_PR_COLL && p->greq)
        return mc_coll_hook.held_progress ? mc_coll_hook.held_progress(p) : 1;
    if (p->kind == MC_PR_COLL) {
        /* MPI's own request (user == real): done when MPI says so. */
        int flag = 1;
        if (p->real != MPI_REQUEST_NULL)
            PMPI_Request_get_status(p->real, &flag, MPI_STATUS_IGNORE);
        return flag;
    }
    if (p->kind == MC_PR_SEND) {
        int flag = 1;
        if (p->real != MPI_REQUEST_NULL)
            PMPI_Request_get_status(p->real, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            return 0;
        /* A slot is kept (owned) only by a send that waits for its
         * receive: strict mode when it started (send.c, needs_ack). */
        if (p->slot && !p->relaxed) {
            /* Released: after a potential-deadlock report (or a call site
             * that used up its probes) this send's call site stops waiting
             * for good; after an early probe without verdict only this wait
             * does. An acknowledgment that came meanwhile wins: a probe that
             * ended as the receive was posted has no verdict, and the send
             * would count as let go without it (stream.c). */
            int acked = mc_env_slot_done(p->slot);
            if (mc_dl_relax == MC_RELAX_SITE)
                mc_dl_relax_site(p->caller);
            if (!acked && !mc_dl_relax)
                return 0;
            p->relaxed = !acked;
        }
        if (p->greq && !p->greq_done) {
            p->greq_done = 1;
            PMPI_Grequest_complete(p->user);
        }
        return 1;
    }
    if (p->posted_at != 0.0)
        mc_notice_first_look(p);
    if (p->mirror != MPI_REQUEST_NULL) {
        int flag = 0;
        MPI_Status st;
        PMPI_Test(&p->mirror, &flag, &st);
        if (!flag)
            return 0;
        mirror_done(p, &st);
    }
    if (p->deferred) {
        mc_recv_drive();
        if (p->deferred)
            return 0;
    }
    if (p->cancelled) {
        if (p->greq && !p->greq_done) {
            p->greq_done = 1;
            PMPI_Grequest_complete(p->user);
        }
        return 1;
    }
    if (p->real == MPI_REQUEST_NULL) {
        if (p->greq && !p->greq_done) {     /* its real receive failed */
            p->greq_done = 1;
            PMPI_Grequest_complete(p->user);
        }
        return 1;
    }
    int flag = 0;
    if (p->greq || (p->persistent && p->real != p->user)) {
        /* The engine's own real receive: complete it here and keep its status. */
        if (!mc_prec_test_real(p))
            return 0;
        mirror_catch_up(p, &p->status);
        if (p->greq && !p->greq_done) {
            p->greq_done = 1;
            PMPI_Grequest_complete(p->user);
        }
        return 1;
    }
    MPI_Status st;
    PMPI_Request_get_status(p->real, &flag, &st);
    if (flag && p->mirror_cancelled)
        mirror_catch_up(p, &st);
    return flag;
}

/* ---- generalized requests for deferred receives -------------------------- */

static int greq_query(void *extra, MPI_Status *status)
{
    mc_prec *p = extra;
    if (p->cancelled) {
        status->MPI_SOURCE = MPI_ANY_SOURCE;
        status->MPI_TAG = MPI_ANY_TAG;
        status->MPI_ERROR = MPI_SUCCESS;
        PMPI_Status_set_elements(status, MPI_BYTE, 0);
        PMPI_Status_set_cancelled(status, 1);
        return MPI_SUCCESS;
    }
    *status = p->status;
    /* The engine's real receive failed (MPI_ERR_TRUNCATE, ...): the
     * application's completion call returns that error, as MPI would have. */
    status->MPI_ERROR = p->err;
    return p->err;
}

static int greq_free(void *extra) { return MPI_SUCCESS; }
static int greq_cancel(void *extra, int complete) { return MPI_SUCCESS; }

int mc_recv_greq_start(mc_prec *p, MPI_Request *req)
{
    return PMPI_Grequest_start(greq_query, greq_free, greq_cancel, p, req);
}
