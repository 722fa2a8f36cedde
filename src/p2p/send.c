/*
 * send.c - the engine's send calls: every send mode, blocking and not,
 * persistent sends, MPI_Start/MPI_Startall, and MPI_Sendrecv(_replace).
 *
 * A blocking send is its nonblocking form plus the wait loop (MPI defines
 * MPI_Send as MPI_Isend followed by MPI_Wait), so a rank stuck in a send can
 * answer the deadlock detector. MPI_Bsend stays blocking: it only copies.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "p2p.h"
#include "skipped.h"
#include "p2p_internal.h"
#include "mc_pmpi_count.h"
#include "state.h"

/* The real send of a mode, counts as MPI_Count (mc_pmpi_count.h picks the
 * _c form when a count needs it). */
static int real_isend(int mode, const void *buf, MPI_Count count, MPI_Datatype t, int dest,
                      int tag, MPI_Comm comm, MPI_Request *r)
{
    switch (mode) {
    case MC_SEND_SYNC: return mc_pmpi_Issend(buf, count, t, dest, tag, comm, r);
    case MC_SEND_READY: return mc_pmpi_Irsend(buf, count, t, dest, tag, comm, r);
    case MC_SEND_BUFFERED: return mc_pmpi_Ibsend(buf, count, t, dest, tag, comm, r);
    default: return mc_pmpi_Isend(buf, count, t, dest, tag, comm, r);
    }
}

static int real_send(int mode, const void *buf, MPI_Count count, MPI_Datatype t, int dest,
                     int tag, MPI_Comm comm)
{
    switch (mode) {
    case MC_SEND_SYNC: return mc_pmpi_Ssend(buf, count, t, dest, tag, comm);
    case MC_SEND_READY: return mc_pmpi_Rsend(buf, count, t, dest, tag, comm);
    case MC_SEND_BUFFERED: return mc_pmpi_Bsend(buf, count, t, dest, tag, comm);
    default: return mc_pmpi_Send(buf, count, t, dest, tag, comm);
    }
}


/* The status of a receive from MPI_PROC_NULL (MPI-3.1 sec. 3.11): source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
static void mc_status_proc_null(MPI_Status *st)
{
    st->MPI_SOURCE = MPI_PROC_NULL;
    st->MPI_TAG = MPI_ANY_TAG;
    PMPI_Status_set_elements(st, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(st, 0);
}

static int needs_ack(int mode)
{
    return mode != MC_SEND_BUFFERED && mc_eng_strict_now();
}


/* Starts a send into p (p->real gets MPI's request): envelope, then data. */
static int send_start(mc_call *c, mc_pcomm *pc, mc_prec *p, const void *buf, MPI_Count count,
                      MPI_Datatype t, int dest, int tag, int mode, const uint64_t *sum)
{
    p->kind = MC_PR_SEND;
    p->fn = c->fn;
    p->caller = c->caller;
    p->fortran = c->fortran;
    p->mode = mode;
    p->comm = pc->comm;
    p->peer = dest;
    p->tag = tag;
    p->active = 1;
    /* A call site already reported as a potential deadlock is not made to
     * wait again at every iteration. */
    p->relaxed = needs_ack(mode) && mc_dl_site_relaxed(c->caller);
    /* The data first: a send MPI refuses (bad arguments) sends no envelope,
     * which no receive could ever pair with a message. */
    int rc = real_isend(mode, buf, count, t, dest, tag, pc->comm, &p->real);
    if (rc != MPI_SUCCESS)
        return rc;
    int owned = needs_ack(mode) && !p->relaxed;
    mc_env_slot *s = mc_env_send(c, pc, mode, buf, count, t, dest, tag, owned, sum);
    p->slot = owned ? s : NULL;     /* an unowned slot is recycled once done */
    mc_sync_send_started(c, p, s);
    return rc;
}

static void prec_release_slot(mc_prec *p)
{
    if (p->slot) {
        mc_env_release(p->slot);
        p->slot = NULL;
    }
}

int mc_send_blocking(mc_call *c, int mode, const void *buf, MPI_Count count, MPI_Datatype t,
                     int dest, int tag, MPI_Comm comm)
{
    mc_eng_lock();
    /* Strict mode: the next send of a stream goes on before its
     * acknowledgment, which the program's next other call waits for
     * (stream.c); any other send ends the stream first. */
    int defer = !c->outer && mc_stream_before_send(mode, comm, dest, tag);
    mc_pcomm *pc = dest == MPI_PROC_NULL ? NULL : mc_pcomm_get(comm);
    if (!pc) {
        mc_eng_unlock();
        return real_send(mode, buf, count, t, dest, tag, comm);
    }
    int rc;
    if (mode == MC_SEND_BUFFERED) {
        rc = real_send(mode, buf, count, t, dest, tag, comm);
        if (rc == MPI_SUCCESS)
            mc_env_send(c, pc, mode, buf, count, t, dest, tag, 0, NULL);
        mc_eng_unlock();
        return rc;
    }
    mc_prec p;
    memset(&p, 0, sizeof p);
    p.real = p.mirror = MPI_REQUEST_NULL;
    rc = send_start(c, pc, &p, buf, count, t, dest, tag, mode, NULL);
    defer = defer && p.slot;
    if (rc == MPI_SUCCESS) {
        /* A deferred send waits here for its data only: relaxed, its
         * record does not ask for the acknowledgment. */
        p.relaxed |= defer;
        if (defer && !mc_prec_progress(&p))
            mc_stream_before_data_wait(p.slot);
        mc_eng_wait_prec(c, &p);
        p.relaxed = defer ? 0 : p.relaxed;
        rc = PMPI_Wait(&p.real, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && !c->outer)
            mc_stream_after_send(c, &p, defer);
        if (rc == MPI_SUCCESS && defer)
            p.slot = NULL;      /* the stream keeps it */
        else if (rc == MPI_SUCCESS)
            mc_sync_completed(&p, 0);
    }
    prec_release_slot(&p);
    mc_eng_unlock();
    return rc;
}

/* Could MPI have handed out a handle that other sends share? Only a send
 * MPI finished at once gets one: Open MPI's static "empty" request (the
 * one MPI_Isend to MPI_PROC_NULL returns, and ob1's for small sends it
 * completes inline), MPICH's builtin complete requests (handle kind
 * builtin, the top two bits 01). Any other handle is a request of its own
 * and keys a record whether or not it is done. The question is asked of
 * the handle, not of MPI: MPI_Request_get_status of a pending request
 * makes MPI progress, and a progress call inside each MPI_Isend did the
 * single-copy transfers of incoming messages there, before this rank's own
 * sends went out: two ranks exchanging windows of 16 to 64 large messages
 * copied one after the other instead of at once (half the bandwidth). */
static int maybe_shared(MPI_Request r)
{
#if defined(OPEN_MPI)
    static MPI_Request empty = MPI_REQUEST_NULL;
    if (empty == MPI_REQUEST_NULL) {
        MPI_Request q = MPI_REQUEST_NULL;
        if (PMPI_Isend(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF, &q) != MPI_SUCCESS
            || q == MPI_REQUEST_NULL)
            return 1;
        empty = q;
        PMPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    return r == empty;
#elif defined(MPICH)
    return ((unsigned)r >> 30) == 1u;
#else
    return 1;
#endif
}

int mc_send_nonblocking(mc_call *c, int mode, const void *buf, MPI_Count count, MPI_Datatype t,
                        int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    mc_eng_lock();
    mc_pcomm *pc = dest == MPI_PROC_NULL ? NULL : mc_pcomm_get(comm);
    if (!pc) {
        mc_eng_unlock();
        return real_isend(mode, buf, count, t, dest, tag, comm, req);
    }
    mc_prec *p = mc_prec_alloc();
    if (!p) {
        /* No record (memory): the send is not followed, but its envelope
         * still goes, or the receiver's pairing would slip by one. */
        int rc = real_isend(mode, buf, count, t, dest, tag, comm, req);
        if (rc == MPI_SUCCESS)
            mc_env_send(c, pc, mode, buf, count, t, dest, tag, 0, NULL);
        mc_eng_unlock();
        return rc;
    }
    uint64_t sum;
    const uint64_t *sump = mc_bufwatch_sum(p, buf, count, t, &sum) ? &sum : NULL;
    int rc = send_start(c, pc, p, buf, count, t, dest, tag, mode, sump);
    p->buf = (void *)buf;
    p->count = count;
    p->type = t;
    if (rc == MPI_SUCCESS)
        mc_bufwatch_overlap(c, p);
    int done = 0;
    if (rc == MPI_SUCCESS && maybe_shared(p->real))
        PMPI_Request_get_status(p->real, &done, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && done) {
        /* MPI finished the send at once, and may have handed out a shared
         * handle for it (Open MPI returns one static "complete" request for
         * all such sends), which cannot key a record. Without a strict wait
         * to make, nothing is left to follow; with one, the application
         * gets a generalized request of its own that the engine completes
         * when the acknowledgment comes. */
        if (!p->slot) {
            *req = p->real;
            mc_prec_free(p);
        } else {
            PMPI_Wait(&p->real, MPI_STATUS_IGNORE);
            p->real = MPI_REQUEST_NULL;
            MPI_Request g = MPI_REQUEST_NULL;
            rc = mc_recv_greq_start(p, &g);
            if (rc == MPI_SUCCESS) {
                p->greq = 1;
                *req = g;
                mc_bufwatch_start(p, buf, count, t, sump);
                mc_prec_insert(p, g, c);
            } else {
                prec_release_slot(p);
                mc_prec_free(p);
            }
        }
    } else if (rc == MPI_SUCCESS) {
        *req = p->real;
        mc_bufwatch_start(p, buf, count, t, sump);
        mc_prec_insert(p, p->real, c);
    } else {
        prec_release_slot(p);
        mc_prec_free(p);
    }
    mc_eng_unlock();
    return rc;
}

/* A persistent request (MPI_Send_init and its modes, MPI_Recv_init) that
 * MPI made: the record keeps the arguments for every MPI_Start. */
int mc_persistent_init(mc_call *c, int kind, int mode, const void *buf, MPI_Count count,
                       MPI_Datatype t, int peer, int tag, MPI_Comm comm, MPI_Request *req, int rc)
{
    if (rc != MPI_SUCCESS || peer == MPI_PROC_NULL)
        return rc;
    mc_eng_lock();
    mc_pcomm *pc = mc_pcomm_get(comm);
    mc_prec *p = pc ? mc_prec_new(*req, c) : NULL;
    if (p) {
        p->kind = kind;
        p->persistent = 1;
        p->fn = c->fn;
        p->caller = c->caller;
        p->fortran = c->fortran;
        p->mode = mode;
        p->comm = comm;
        p->peer = peer;
        p->tag = tag;
        p->buf = (void *)buf;
        p->count = count;
        p->type = t;
    }
    mc_eng_unlock();
    return rc;
}

int mc_send_init(mc_call *c, int mode, const void *buf, MPI_Count count, MPI_Datatype t, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req, int rc)
{
    return mc_persistent_init(c, MC_PR_SEND, mode, buf, count, t, dest, tag, comm, req, rc);
}

/* MPI_Start of one request (engine lock held). */
int mc_start_one(mc_call *c, MPI_Request *req)
{
    mc_prec *p = mc_prec_find(*req);
    mc_pcomm *pc = p ? mc_pcomm_get(p->comm) : NULL;
    if (!p || !pc)
        return PMPI_Start(req);
    mc_call sc = *c;
    sc.fn = p->fn;          /* the envelope names the call that made the request */
    sc.caller = p->caller;
    if (p->kind == MC_PR_SEND) {
        prec_release_slot(p);
        p->active = 1;
        p->relaxed = 0;
        p->real = p->user;
        int rc = PMPI_Start(req);
        if (rc != MPI_SUCCESS)
            return rc;
        /* MPI may hand out a new handle (MPI_Start's request is INOUT):
         * Open MPI does for a buffered send whose last start is still in
         * transit from the attached buffer, and frees the old one itself.
         * The record follows, or the next start would go unseen, without
         * its envelope, and the receiver's mirror would wait for it. */
        if (*req != p->user)
            mc_prec_rekey(p, *req);
        p->real = *req;
        p->relaxed = needs_ack(p->mode) && mc_dl_site_relaxed(p->caller);
        int owned = needs_ack(p->mode) && !p->relaxed;
        uint64_t sum;
        const uint64_t *sump = mc_bufwatch_sum(p, p->buf, p->count, p->type, &sum) ? &sum : NULL;
        mc_env_slot *s = mc_env_send(&sc, pc, p->mode, p->buf, p->count, p->type, p->peer, p->tag,
                                     owned, sump);
        p->slot = owned ? s : NULL;
        mc_sync_send_started(&sc, p, s);
        mc_bufwatch_start(p, p->buf, p->count, p->type, sump);
        mc_bufwatch_overlap(c, p);
        return rc;
    }
    int rc = mc_recv_post(&sc, pc, p->buf, p->count, p->type, p->peer, p->tag, p);
    /* The same for a receive MPI started itself (not a held-back one,
     * which keeps the application's handle and receives apart). */
    if (rc == MPI_SUCCESS && p->persistent && !p->greq && !p->deferred
        && p->real != MPI_REQUEST_NULL && p->real != p->user) {
        *req = p->real;
        mc_prec_rekey(p, p->real);
    }
    if (rc == MPI_SUCCESS)
        mc_bufwatch_overlap(c, p);
    return rc;
}

/* ---- MPI_Sendrecv and MPI_Sendrecv_replace ------------------------------ */

typedef struct { mc_prec *s, *r; } pair_ctx;

static int pair_ready(void *ctx)
{
    pair_ctx *pc = ctx;
    int a = mc_prec_progress(pc->s), b = mc_prec_progress(pc->r);
    return a && b;
}

static void pair_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    pair_ctx *pc = ctx;
    if (!mc_prec_progress(pc->s))
        mc_prec_describe(pc->s, w);
    if (!mc_prec_progress(pc->r))
        mc_prec_describe(pc->r, w);
}

int mc_sendrecv(mc_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
                int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag,
                MPI_Comm comm, MPI_Status *status)
{
    mc_eng_lock();
    mc_pcomm *pc = mc_pcomm_get(comm);
    if (!pc) {
        mc_eng_unlock();
        return mc_pmpi_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                                comm, status);
    }
    mc_prec s, r;
    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
    s.real = s.mirror = r.real = r.mirror = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS, rrc = MPI_SUCCESS;
    /* The send first: one MPI refuses ends the call before any receive is
     * posted (a posted one would take a message the program receives later). */
    if (dest != MPI_PROC_NULL)
        rc = send_start(c, pc, &s, sbuf, scount, stype, dest, stag, MC_SEND_STANDARD, NULL);
    if (rc != MPI_SUCCESS) {
        mc_eng_unlock();
        return rc;
    }
    if (source != MPI_PROC_NULL)
        rrc = mc_recv_post(c, pc, rbuf, rcount, rtype, source, rtag, &r);
    if (rrc != MPI_SUCCESS) {
        /* The send half is under way: see it through, then report. */
        if (s.real != MPI_REQUEST_NULL)
            PMPI_Wait(&s.real, MPI_STATUS_IGNORE);
        prec_release_slot(&s);
        mc_eng_unlock();
        return rrc;
    }
    if (rc == MPI_SUCCESS && rrc == MPI_SUCCESS) {
        pair_ctx ctx = {&s, &r};
        mc_eng_wait(c, pair_ready, pair_describe, &ctx);
    }
    if (s.real != MPI_REQUEST_NULL) {
        int e = PMPI_Wait(&s.real, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = e;
        if (rc == MPI_SUCCESS)
            mc_sync_completed(&s, 0);
    }
    if (source == MPI_PROC_NULL) {
        if (status != MPI_STATUS_IGNORE)
            mc_status_proc_null(status);
    } else if (r.real != MPI_REQUEST_NULL) {
        int e = PMPI_Wait(&r.real, status);
        if (rrc == MPI_SUCCESS)
            rrc = e;
        if (rrc == MPI_SUCCESS)
            mc_sync_completed(&r, 0);
    }
    prec_release_slot(&s);
    mc_eng_unlock();
    return rc != MPI_SUCCESS ? rc : rrc;
}

/* The bytes count x t touches from buf: [buf + lo, buf + lo + span), for
 * any extent, negative ones included. 0, or -1 when MPI cannot say. */
static int mc_type_span(MPI_Datatype t, MPI_Count count, MPI_Aint *lo, MPI_Aint *span)
{
    MPI_Aint lb, extent, tlb, textent;
    if (PMPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS
        || PMPI_Type_get_true_extent(t, &tlb, &textent) != MPI_SUCCESS)
        return -1;
    MPI_Aint step = (MPI_Aint)(count - 1) * extent;
    *lo = tlb + (step < 0 ? step : 0);
    MPI_Aint hi = tlb + textent + (step > 0 ? step : 0);
    *span = hi - *lo;
    return 0;
}

/* MPI_Sendrecv_replace: the outgoing data is copied first (the whole span
 * the datatype touches), so sending and receiving can run at once as in
 * MPI_Sendrecv. */
int mc_sendrecv_replace(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int dest,
                        int stag, int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Aint lo = 0, span = 0;
    char *tmp = NULL;
    if (count > 0 && dest != MPI_PROC_NULL && mc_type_span(t, count, &lo, &span) == 0 && span > 0) {
        tmp = mc_malloc((size_t)span);
        if (!tmp) {
            /* No memory for the copy: MPI does it, unchecked (and the
             * receiver, missing this envelope, cannot pair it). */
            return mc_pmpi_Sendrecv_replace(buf, count, t, dest, stag, source, rtag, comm, status);
        }
        memcpy(tmp, (char *)buf + lo, (size_t)span);
    }
    int rc = mc_sendrecv(c, tmp ? tmp - lo : buf, count, t, dest, stag, buf, count, t, source,
                         rtag, comm, status);
    free(tmp);
    return rc;
}

/* ---- MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0) -------------------- */

#if MPI_VERSION >= 4
static int direct_isendrecv(const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
                            int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source,
                            int rtag, MPI_Comm comm, MPI_Request *req, int replace)
{
    if (replace)
        return PMPI_Isendrecv_replace_c(rbuf, rcount, rtype, dest, stag, source, rtag, comm, req);
    return PMPI_Isendrecv_c(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                            comm, req);
}

int mc_isendrecv(mc_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag,
                 MPI_Comm comm, MPI_Request *req, int replace)
{
    mc_eng_lock();
    mc_pcomm *pc = mc_pcomm_get(comm);
    void *tmp = NULL;
    const void *out = sbuf;
    if (pc && replace && dest != MPI_PROC_NULL && scount > 0) {
        MPI_Aint lo = 0, span = 0;
        if (mc_type_span(stype, scount, &lo, &span) == 0 && span > 0)
            tmp = mc_malloc((size_t)span);
        if (!tmp) {
            pc = NULL;      /* cannot copy: leave it to MPI, unchecked */
        } else {
            memcpy(tmp, (char *)sbuf + lo, (size_t)span);
            out = (char *)tmp - lo;
        }
    }
    mc_prec *p = pc ? mc_prec_alloc() : NULL;
    if (!p) {
        free(tmp);
        mc_eng_unlock();
        return direct_isendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                                comm, req, replace);
    }
    p->kind = MC_PR_PAIR;
    p->fn = c->fn;
    p->caller = c->caller;
    p->fortran = c->fortran;
    p->comm = comm;
    p->active = 1;
    p->tmpbuf = tmp;
    int rc = MPI_SUCCESS;
    if (source == MPI_PROC_NULL) {
        mc_status_proc_null(&p->status);
    } else if ((p->pair_r = mc_prec_alloc()) != NULL) {
        rc = mc_recv_post(c, pc, rbuf, rcount, rtype, source, rtag, p->pair_r);
    }
    if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL && (p->pair_s = mc_prec_alloc()) != NULL) {
        /* buffer-modified: the send half is watched like an MPI_Isend
         * (MPI_Isendrecv_replace sends from the engine's copy: its buffer
         * is watched as the receive half's). */
        uint64_t sum;
        const uint64_t *sump = !tmp && mc_bufwatch_sum(p->pair_s, out, scount, stype, &sum) ? &sum : NULL;
        rc = send_start(c, pc, p->pair_s, out, scount, stype, dest, stag, MC_SEND_STANDARD, sump);
        if (rc == MPI_SUCCESS)
            mc_bufwatch_start(p->pair_s, out, scount, stype, sump);
    }
    MPI_Request g = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS)
        rc = mc_recv_greq_start(p, &g);
    if (rc == MPI_SUCCESS) {
        p->greq = 1;
        *req = g;
        mc_prec_insert(p, g, c);
    }
    /* On an error the halves stay with the engine (a deferred receive may be
     * queued); they are never completed for the application. */
    mc_eng_unlock();
    return rc;
}
#endif
