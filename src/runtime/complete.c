/*
 * complete.c - the completion calls (Wait, Test and their any/all/some
 * forms, MPI_Request_get_status, MPI_Cancel, MPI_Request_free) when the
 * engine holds some of the requests.
 *
 * RATIONALE: a request is handed to MPI's completion call only once the
 * engine says it is "ready" (its envelope arrived and was checked, its
 * deferred real receive was posted and finished, its strict acknowledgment
 * came), so the real call never blocks where the checker cannot see, and a
 * truncated message is reported before MPI's own error stops the job. Which
 * request a Waitany/Testany/Waitsome returns may differ from what MPI alone
 * would pick; the standard lets either be returned. Calls whose requests the
 * engine does not hold go straight to MPI, unless receives are deferred
 * (then the call waits in the loop, so those receives keep being posted).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime_internal.h"
#include "skipped.h"
#include "objects.h"
#include "state.h"

/* src/coll/handshake.c */

/* Is r an inactive persistent request (or null): ignored by any/some. */
static int inactive(MPI_Request r, mc_prec *p)
{
    if (r == MPI_REQUEST_NULL)
        return 1;
    if (p)
        return p->persistent && !p->active;
    MC_LOCK();      /* the table: another thread may be adding a request */
    mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(r));
    int idle = o && o->persistent && !o->active;
    MC_UNLOCK();
    return idle;
}

static int ready(MPI_Request r, mc_prec *p)
{
    if (r == MPI_REQUEST_NULL)
        return 1;
    if (p)
        return mc_p2p_hook.prec_progress(p);
    int flag = 0;
    PMPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    return flag;
}

int mc_prec_test_real(mc_prec *p)
{
    int flag = 0, rc = PMPI_Test(&p->real, &flag, &p->status);
    if (rc != MPI_SUCCESS) {
        p->err = rc;
        p->real = MPI_REQUEST_NULL;
        return 1;
    }
    return flag;
}

void mc_prec_describe(mc_prec *p, mc_waitfor *w)
{
    mc_pcomm *pc = mc_pcomm_get(p->comm);
    mc_waitfor_clause(w);
    if (!pc) {
        w->unknown = 1;
        return;
    }
    if (p->kind == MC_PR_COLL) {
        w->nclauses--;      /* one clause per member */
        mc_coll_hook.describe_members(pc, p->coll_key, w);
        return;
    }
    if (p->kind == MC_PR_PAIR) {
        w->nclauses--;      /* the halves make their own clauses */
        if (p->pair_s && !mc_p2p_hook.prec_progress(p->pair_s))
            mc_prec_describe(p->pair_s, w);
        if (p->pair_r && !mc_p2p_hook.prec_progress(p->pair_r))
            mc_prec_describe(p->pair_r, w);
        return;
    }
    if (p->kind == MC_PR_SEND) {
        int flag = 1;
        if (p->real != MPI_REQUEST_NULL)
            PMPI_Request_get_status(p->real, &flag, MPI_STATUS_IGNORE);
        w->npending++;
        if (flag)
            w->nrelax++;        /* MPI is done with it: only the acknowledgment is missing */
        mc_waitfor_add_comm(w, pc, p->peer);
        return;
    }
    if (p->checked && p->mirror == MPI_REQUEST_NULL && !p->deferred && !p->cancelled
        && p->real != MPI_REQUEST_NULL) {
        /* Its envelope was matched, so the sender had posted the message
         * (the envelope follows the real send), and its real receive is
         * posted: the two are a matched pair, and MPI completes it without
         * another call of either rank (MPI's progress rule). A wait for the
         * data of a huge or finely typed message can outlast --timeout;
         * it is a transfer in progress, not a wait on the sender. */
        w->moving_bytes += p->env.sig.size * p->env.sig.count;   /* what was sent */
        w->moving++;
        if (!w->list_moving) {
            w->nclauses--;
            return;
        }
        mc_waitfor_add_comm(w, pc, p->status.MPI_SOURCE);
        return;
    }
    w->npending++;
    if (p->checked)
        mc_waitfor_add_comm(w, pc, p->status.MPI_SOURCE);
    else
        mc_waitfor_add_comm(w, pc, p->peer);
}

/* buffer-modified: the program's call c completed p (or told the program
 * it is complete): the send buffer must not have changed, the receive
 * buffer must hold what was sent. Each is compared once; an
 * MPI_Isendrecv's halves are compared as its own. */
static void check_one(const mc_call *c, mc_prec *p, const mc_prec *op)
{
    if (p->bufsum_on) {
        mc_bufwatch_end(p, op, c);
    } else if (p->kind == MC_PR_RECV && p->env_match) {
        mc_bufwatch_recv_end(p, op, c);
        p->env_match = 0;
    }
}

static void check_buffers_now(const mc_call *c, mc_prec *p)
{
    if (p->kind != MC_PR_PAIR) {
        check_one(c, p, p);
        return;
    }
    if (p->pair_s)
        check_one(c, p->pair_s, p);
    if (p->pair_r)
        check_one(c, p->pair_r, p);
}

/* The engine is done with p after the application's call completed it. */
static void finished(const mc_call *c, mc_prec *p, MPI_Status *st)
{
    if (p->active) {
        check_buffers_now(c, p);
        /* The program is past it now (strict mode's model of synchronous
         * sends). */
        mc_p2p_hook.completed(p, c->fn != MC_FN_MPI_Wait && c->fn != MC_FN_MPI_Waitall);
    }
    if (p->persistent) {
        /* Only the completion of an active start has a status to give; an
         * inactive request's is MPI's empty one. */
        if (p->active && st && st != MPI_STATUS_IGNORE && p->real != p->user) {
            if (p->cancelled) {
                PMPI_Status_set_cancelled(st, 1);
            } else if (p->real == MPI_REQUEST_NULL && p->kind == MC_PR_RECV) {
                *st = p->status;
            }
        }
        p->active = 0;
        p->real = MPI_REQUEST_NULL;
        if (p->slot) {
            mc_p2p_hook.env_release(p->slot);
            p->slot = NULL;
        }
        return;
    }
    mc_prec_drop(p);
}

/* ---- one request ---------------------------------------------------------- */


/* Whether a completion call must go through the engine at all. */
static int engine_busy(void)
{
    return mc_prec_count() > 0 || mc_p2p_hook.recv_pending_deferred() || mc_eng_has_orphans();
}

/* For a test of one request: one turn of the engine's service (when it has
 * anything to do), then the engine's record of req with the engine lock
 * held, or NULL with the lock let go when the engine does not hold req. */
static mc_prec *held(MPI_Request req)
{
    mc_eng_lock();
    mc_prec *p = req != MPI_REQUEST_NULL ? mc_prec_find(req) : NULL;
    if (p || engine_busy())
        mc_eng_service();
    if (!p)
        mc_eng_unlock();
    return p;
}

static int prec_ready(void *ctx) { return mc_p2p_hook.prec_progress(ctx); }
static void prec_describe(void *ctx, mc_waitfor *w, int and_mode) { mc_prec_describe(ctx, w); }

void mc_eng_wait_prec(mc_call *c, mc_prec *p)
{
    mc_eng_wait(c, prec_ready, prec_describe, p);
}

/* MPICHECK_INTERNAL_TEST_DEADLOCK_TRACE: at a deadlock verdict, the state
 * of the verdict's own wait in MPI (its receive, its mirror, what is
 * queued for them). It found the cause of a false deadlock under threads
 * (docs/design.md, "Deadlocks among threads": both were complete, the
 * detector had not looked), and is kept for the next such report. */
void mc_eng_trace_verdict(mc_ready_fn ready, void *ctx)
{
    if (!getenv("MPICHECK_INTERNAL_TEST_DEADLOCK_TRACE") || ready != prec_ready || !ctx)
        return;
    mc_prec *p = ctx;
    int real_done = -1, mirror_done = -1, shadow_msg = 0, comm_msg = 0;
    if (p->real != MPI_REQUEST_NULL)
        PMPI_Request_get_status(p->real, &real_done, MPI_STATUS_IGNORE);
    if (p->mirror != MPI_REQUEST_NULL)
        PMPI_Request_get_status(p->mirror, &mirror_done, MPI_STATUS_IGNORE);
    mc_pcomm *pc = mc_pcomm_get(p->comm);
    if (p->peer != MPI_PROC_NULL) {
        PMPI_Iprobe(p->peer, p->tag, p->comm, &comm_msg, MPI_STATUS_IGNORE);
        if (pc)
            PMPI_Iprobe(p->peer, p->tag, pc->shadow, &shadow_msg, MPI_STATUS_IGNORE);
    }
    fprintf(stderr, "mpicheck-trace: rank %d: verdict on %s kind %d peer %d tag %d: real %s, mirror %s "
            "(checked %d, deferred %d), unmatched message on comm %d, on shadow %d; envelopes sent %lld, "
            "received %lld\n", mc_st.world_rank, mc_fn_table[p->fn].name, p->kind, p->peer, p->tag,
            p->real == MPI_REQUEST_NULL ? "none" : real_done ? "done" : "pending",
            p->mirror == MPI_REQUEST_NULL ? "none" : mirror_done ? "done" : "pending",
            p->checked, p->deferred, comm_msg, shadow_msg, mc_env_sent, mc_env_received);
}

typedef struct { int n; MPI_Request *reqs; mc_prec **recs; int any; } set_ctx;

static int set_ready(void *ctx)
{
    set_ctx *s = ctx;
    int all = 1, active = 0;
    for (int i = 0; i < s->n; i++) {
        MPI_Request r = s->reqs[i];
        if (inactive(r, s->recs[i]))
            continue;
        active++;
        int ok = ready(r, s->recs[i]);
        if (s->any && ok)
            return 1;
        all &= ok;
    }
    return s->any ? active == 0 : all;
}

static void set_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    set_ctx *s = ctx;
    if (s->any)
        mc_waitfor_clause(w);
    for (int i = 0; i < s->n; i++) {
        MPI_Request r = s->reqs[i];
        if (inactive(r, s->recs[i]) || ready(r, s->recs[i]))
            continue;
        if (!s->recs[i]) {
            w->unknown = 1;
            continue;
        }
        if (s->any) {
            /* OR: one clause holding every peer. */
            mc_waitfor tmp = {0};
            tmp.list_moving = w->list_moving;
            mc_prec_describe(s->recs[i], &tmp);
            for (int k = 0; k < tmp.nranks; k++)
                mc_waitfor_add(w, tmp.ranks[k]);
            /* One request whose data is moving completes the call. */
            w->unknown |= tmp.unknown || (tmp.moving && !w->list_moving);
            w->moving += tmp.moving;
            w->moving_bytes += tmp.moving_bytes;
            w->npending += tmp.npending;
            w->nrelax += tmp.nrelax;
            mc_waitfor_free(&tmp);
        } else {
            mc_prec_describe(s->recs[i], w);
        }
    }
}

/* Looks up the records; 0 when the engine holds none of them. Engine lock
 * held. */
static int lookup(int n, MPI_Request *reqs, mc_prec **recs)
{
    /* One handle twice (Open MPI hands out one static request for sends
     * that completed at once): one record, taken once. A record found in
     * this lookup carries its number, so a second find is seen at once:
     * comparing each with the ones before cost n * n / 2 steps, half a
     * million for a completion call of 1,024 requests. A record from an
     * earlier lookup carries a smaller number. */
    static uint64_t serial;
    serial++;
    int any = 0;
    for (int i = 0; i < n; i++) {
        recs[i] = reqs[i] == MPI_REQUEST_NULL ? NULL : mc_prec_find(reqs[i]);
        if (recs[i] && recs[i]->looked_up == serial)
            recs[i] = NULL;
        else if (recs[i])
            recs[i]->looked_up = serial;
        any |= recs[i] != NULL;
    }
    return any;
}

/* The any/some forms: the records of reqs, then (blocking) the wait until
 * one of them is ready, or (testing) one turn of the engine's service. */
static void any_ready(mc_call *c, int n, MPI_Request *reqs, mc_prec **recs, int blocking)
{
    lookup(n, reqs, recs);
    set_ctx s = {n, reqs, recs, 1};
    if (blocking)
        mc_eng_wait(c, set_ready, set_describe, &s);
    else
        mc_eng_service();
}

#define RECS_INLINE 32

int mc_complete_wait(mc_call *c, MPI_Request *req, MPI_Status *status)
{
    mc_eng_lock();
    if (!engine_busy()) {
        mc_eng_unlock();
        return PMPI_Wait(req, status);
    }
    mc_prec *p = NULL;
    lookup(1, req, &p);
    set_ctx s = {1, req, &p, 0};
    mc_eng_wait(c, set_ready, set_describe, &s);
    int rc = PMPI_Wait(req, status);
    if (p)
        finished(c, p, status);
    mc_eng_unlock();
    return rc;
}

int mc_complete_waitall(mc_call *c, int n, MPI_Request *reqs, MPI_Status *statuses)
{
    mc_eng_lock();
    if (!engine_busy() || n <= 0) {
        mc_eng_unlock();
        return PMPI_Waitall(n, reqs, statuses);
    }
    mc_prec *inl[RECS_INLINE], **recs = n <= RECS_INLINE ? inl : mc_malloc((size_t)n * sizeof *recs);
    if (!recs) {
        mc_eng_unlock();
        return PMPI_Waitall(n, reqs, statuses);
    }
    lookup(n, reqs, recs);
    set_ctx s = {n, reqs, recs, 0};
    mc_eng_wait(c, set_ready, set_describe, &s);
    int rc = PMPI_Waitall(n, reqs, statuses);
    for (int i = 0; i < n; i++)
        if (recs[i])
            finished(c, recs[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i]);
    if (recs != inl)
        free(recs);
    mc_eng_unlock();
    return rc;
}

/* Waitany / Testany: the first active ready request. */
int mc_complete_any(mc_call *c, int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *status,
                    int blocking)
{
    mc_eng_lock();
    if (!engine_busy() || n <= 0) {
        mc_eng_unlock();
        return blocking ? PMPI_Waitany(n, reqs, index, status) : PMPI_Testany(n, reqs, index, flag, status);
    }
    mc_prec *inl[RECS_INLINE], **recs = n <= RECS_INLINE ? inl : mc_malloc((size_t)n * sizeof *recs);
    if (!recs) {
        mc_eng_unlock();
        return blocking ? PMPI_Waitany(n, reqs, index, status) : PMPI_Testany(n, reqs, index, flag, status);
    }
    any_ready(c, n, reqs, recs, blocking);
    int rc = MPI_SUCCESS, pick = -1, nactive = 0;
    for (int i = 0; i < n; i++) {
        if (inactive(reqs[i], recs[i]))
            continue;
        nactive++;
        if (ready(reqs[i], recs[i])) {
            pick = i;
            break;
        }
    }
    if (nactive == 0) {
        rc = blocking ? PMPI_Waitany(n, reqs, index, status) : PMPI_Testany(n, reqs, index, flag, status);
    } else if (pick < 0) {
        if (flag)
            *flag = 0;
        *index = MPI_UNDEFINED;
    } else {
        mc_prec *p = recs[pick];
        rc = PMPI_Wait(&reqs[pick], status);
        *index = pick;
        if (flag)
            *flag = 1;
        if (p)
            finished(c, p, status);
    }
    if (recs != inl)
        free(recs);
    mc_eng_unlock();
    return rc;
}

/* Waitsome / Testsome: every active ready request. */
int mc_complete_some(mc_call *c, int n, MPI_Request *reqs, int *outcount, int *indices,
                     MPI_Status *statuses, int blocking)
{
    mc_eng_lock();
    if (!engine_busy() || n <= 0) {
        mc_eng_unlock();
        return blocking ? PMPI_Waitsome(n, reqs, outcount, indices, statuses)
                        : PMPI_Testsome(n, reqs, outcount, indices, statuses);
    }
    mc_prec *inl[RECS_INLINE], **recs = n <= RECS_INLINE ? inl : mc_malloc((size_t)n * sizeof *recs);
    if (!recs) {
        mc_eng_unlock();
        return blocking ? PMPI_Waitsome(n, reqs, outcount, indices, statuses)
                        : PMPI_Testsome(n, reqs, outcount, indices, statuses);
    }
    any_ready(c, n, reqs, recs, blocking);
    int nactive = 0;
    for (int i = 0; i < n; i++)
        nactive += !inactive(reqs[i], recs[i]);
    int rc = MPI_SUCCESS;
    if (nactive == 0) {
        rc = blocking ? PMPI_Waitsome(n, reqs, outcount, indices, statuses)
                      : PMPI_Testsome(n, reqs, outcount, indices, statuses);
    } else {
        int k = 0, err = 0;
        for (int i = 0; i < n; i++) {
            if (inactive(reqs[i], recs[i]) || !ready(reqs[i], recs[i]))
                continue;
            MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[k];
            mc_prec *p = recs[i];
            int e = PMPI_Wait(&reqs[i], st);
            if (e != MPI_SUCCESS) {
                err = e;
                if (st != MPI_STATUS_IGNORE)
                    st->MPI_ERROR = e;
            } else if (st != MPI_STATUS_IGNORE) {
                st->MPI_ERROR = MPI_SUCCESS;
            }
            if (p)
                finished(c, p, st);
            indices[k++] = i;
        }
        *outcount = k;
        if (err)
            rc = statuses == MPI_STATUSES_IGNORE ? err : MPI_ERR_IN_STATUS;
    }
    if (recs != inl)
        free(recs);
    mc_eng_unlock();
    return rc;
}

int mc_complete_test(mc_call *c, MPI_Request *req, int *flag, MPI_Status *status)
{
    mc_prec *p = held(*req);
    if (!p)
        return PMPI_Test(req, flag, status);
    int rc = MPI_SUCCESS;
    if (mc_p2p_hook.prec_progress(p)) {
        rc = PMPI_Test(req, flag, status);
        if (*flag)
            finished(c, p, status);
    } else {
        *flag = 0;
    }
    mc_eng_unlock();
    return rc;
}

int mc_complete_testall(mc_call *c, int n, MPI_Request *reqs, int *flag, MPI_Status *statuses)
{
    mc_eng_lock();
    if (!engine_busy() || n <= 0) {
        mc_eng_unlock();
        return PMPI_Testall(n, reqs, flag, statuses);
    }
    mc_prec *inl[RECS_INLINE], **recs = n <= RECS_INLINE ? inl : mc_malloc((size_t)n * sizeof *recs);
    if (!recs) {
        mc_eng_unlock();
        return PMPI_Testall(n, reqs, flag, statuses);
    }
    mc_eng_service();
    int rc = MPI_SUCCESS;
    if (!lookup(n, reqs, recs)) {
        rc = PMPI_Testall(n, reqs, flag, statuses);
    } else {
        set_ctx s = {n, reqs, recs, 0};
        if (set_ready(&s)) {
            rc = PMPI_Testall(n, reqs, flag, statuses);
            if (*flag)
                for (int i = 0; i < n; i++)
                    if (recs[i])
                        finished(c, recs[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i]);
        } else {
            *flag = 0;
        }
    }
    if (recs != inl)
        free(recs);
    mc_eng_unlock();
    return rc;
}

int mc_complete_get_status(mc_call *c, MPI_Request req, int *flag, MPI_Status *status)
{
    mc_prec *p = held(req);
    if (!p)
        return PMPI_Request_get_status(req, flag, status);
    int rc = MPI_SUCCESS;
    if (mc_p2p_hook.prec_progress(p)) {
        rc = PMPI_Request_get_status(req, flag, status);
        if (*flag && p->active && p->persistent && p->kind == MC_PR_RECV && p->real != p->user
            && status != MPI_STATUS_IGNORE) {
            if (p->cancelled)
                PMPI_Status_set_cancelled(status, 1);
            else if (p->active)
                *status = p->status;
        }
        /* The operation is complete now, as far as the program can know:
         * its buffer may be used from here on, before the MPI_Wait that
         * frees the request (MPI-4.0 sec. 3.7.3), so it is compared now. */
        if (*flag && p->active)
            check_buffers_now(c, p);
    } else {
        *flag = 0;
    }
    mc_eng_unlock();
    return rc;
}

int mc_complete_cancel(mc_call *c, MPI_Request *req)
{
    mc_eng_lock();
    mc_prec *p = *req != MPI_REQUEST_NULL ? mc_prec_find(*req) : NULL;
    int rc = MPI_SUCCESS;
    if (!p || !p->active) {
        rc = PMPI_Cancel(req);
    } else if (p->kind == MC_PR_RECV) {
        mc_p2p_hook.recv_cancel(p);
    } else {
        rc = PMPI_Cancel(req);
        /* Take the envelope back too when it was not matched yet (a
         * notice of its receive is not a match: only MPI's completion). */
        if (p->slot && !p->slot->done)
            PMPI_Cancel(&p->slot->req);
        p->relaxed = 1;
    }
    mc_eng_unlock();
    return rc;
}

int mc_complete_free(mc_call *c, MPI_Request *req)
{
    mc_eng_lock();
    mc_prec *p = *req != MPI_REQUEST_NULL ? mc_prec_find(*req) : NULL;
    int rc;
    if (p && p->active && !p->greq && p->real == p->user) {
        /* An active operation whose request is MPI's own: the engine keeps
         * that request instead of freeing it, and completes it itself
         * (drive_orphans), as MPI would have in the background. The
         * operation stays followed to its real end: its envelope is
         * checked, a later error in it is reported where it started, and
         * its send buffer is watched until MPI is done with it. The
         * handle goes from the program as MPI_Request_free takes it. */
        p->freed_caller = c->caller;
        *req = MPI_REQUEST_NULL;
        mc_prec_orphan(p);
        mc_eng_unlock();
        return MPI_SUCCESS;
    }
    rc = PMPI_Request_free(req);
    if (p && rc == MPI_SUCCESS) {
        if (!p->active) {
            mc_prec_drop(p);
        } else {
            /* The program's handle is a generalized request the engine
             * completes, or a persistent receive the engine posted as a
             * receive of its own: MPI let go of the handle, the engine
             * still sees its operation through. */
            p->freed_caller = c->caller;
            mc_prec_orphan(p);
        }
    }
    mc_eng_unlock();
    return rc;
}
