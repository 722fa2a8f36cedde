/*
 * syncmodel.c - strict mode's model of synchronous sends: the potential
 * deadlocks of sends strict mode let go without their acknowledgment.
 *
 * Strict mode gives a standard send MPI_Ssend's semantics by waiting for
 * its receive; when the receiver computes, the early probe lets the send
 * go without a verdict (deadlock.c), and a cycle that closes later, once
 * the receiver is done computing, completes unseen: rank 0 sends to 1 and
 * then receives from 1; rank 1 computes for a second, then does the same.
 * With synchronous sends both would wait in their sends forever. This file
 * finds such cycles when they close, from facts each rank has, with a
 * message only where a send was let go (docs/design.md, "Sends let go
 * without their acknowledgment").
 *
 * Every rank keeps D: sends of the job that, in the synchronous model,
 * must have been received before what it does from a point on ("from",
 * counted in its own mc_dep_events: receives posted and sends started). Entries
 * come
 *  - from its own sends let go unacknowledged (at the program's completion
 *    of the send: what it does after comes after it in the model), and go
 *    once the envelope's MPI_Issend completes (the receive took it);
 *  - from notices: a rank whose receive takes the envelope of this rank's
 *    send #n while its own D (as at the receive's posting) was not empty
 *    tells this rank so; in the model this rank's send #n completes only
 *    after that receive is posted, so what this rank does after
 *    completing send #n depends on that D too;
 *  - from the data: a rank that starts send #n while its D is not empty
 *    tells the destination so; in the model the receive of that message
 *    completes only after the send started, so what the receiver does
 *    after completing it depends on that D too.
 * The verdict: a receive that takes the envelope of send (Y, S) while
 * (Y, S) was in D at its posting would, in the model, be posted only after
 * S is received, and S can be received only by it: a cycle of waits,
 * which MPI's buffering broke in this run: potential-deadlock.
 *
 * No false verdict: every entry stands for a wait of the model (a send
 * let go is one the model blocks in; a notice passes a dependency along a
 * receive that the model posts before the send it releases completes),
 * and each is used only for receives posted after its point. Entries that
 * are stale (their send was received since) close no cycle: a received
 * message matches no later receive. What is not followed is a miss, never
 * a false finding: matches by MPI_Mprobe, programs with threads of their
 * own, dependencies told once (below), and entries beyond the caps.
 *
 * Cost: nothing is sent while no send was let go. Each entry is told to
 * each rank at most once each way (a later send or receive that would
 * tell it again adds only a later point, a miss at most), so a program
 * whose sends are let go again and again (a call site that stopped
 * waiting) pays a message per let-go send and rank it reaches at most.
 * Engine lock held throughout.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "p2p_internal.h"
#include "skipped.h"     /* mc_malloc */
#include "syncmodel.h"
#include "state.h"

#define DEP_SENT 256        /* this rank's recent strict sends, for notices about them */
#define DEP_RECVD 64        /* its recent completed receives, for data that comes late */
#define DEP_PENDING 64      /* messages about sends or receives not completed yet */
#define DEP_DATA_WAIT_S 1.0 /* the longest a receive waits for the dependencies its envelope announced */
#define DEP_LEARNED_TTL_S 60.0
#define DEP_ACKED_TTL_S 1.0 /* an own entry stays this long after its acknowledgment was seen */
#define DEP_MAGIC 0x4d434431u   /* "MCD1" */

enum { KIND_NOTICE = MC_DEP_NOTICE, KIND_DATA = MC_DEP_DATA };

typedef struct {            /* on the wire (world_dup, MC_WTAG_NOTICE; notice.c takes it in) */
    uint32_t magic;
    uint32_t serial;        /* notice: the receiving rank's send; data: the sending rank's */
    int32_t kind, fn, fortran, tag;     /* the call that tells: the receive, or the send */
    uint64_t site_mod, site_off;
    int32_t n, pad_;
    mc_dep_id e[MC_DEP_WIRE];
} dep_msg;
_Static_assert(sizeof(dep_msg) <= MC_SYNC_MSG_MAX, "dep_msg too large");
_Static_assert(sizeof(dep_msg) != 32, "dep_msg must differ in size from notice.c's message");

typedef struct {            /* a send of this rank, or a receive it completed */
    mc_dep_id id;
    int done;
    int got;                /* a receive: the sender's dependencies came */
    uint64_t at;            /* mc_dep_events when the program completed it */
    mc_dep_call call;
} op_rec;

typedef struct {
    int source;
    double since;           /* its op never completed for the program: it goes after the TTL */
    dep_msg msg;
} pending_msg;

typedef struct out_msg {
    MPI_Request req;
    dep_msg msg;
    struct out_msg *next;
} out_msg;

static uint32_t next_serial;
static uint32_t envelope_serial;    /* the last envelope numbered, and its send's event */
static uint64_t envelope_event;
static op_rec sent[DEP_SENT];       /* by serial */
static op_rec recvd[DEP_RECVD];     /* newest at recvd_next - 1 */
static int recvd_next;
static pending_msg pending[DEP_PENDING];
static int npending;
static int dropped;                 /* messages that found pending full: no receive waits for them */
static out_msg *outgoing;

static int rank_off;                /* mc_sync_wildcard */

int mc_sync_modelled(const mc_pcomm *pc)
{
    return !rank_off && mc_eng_strict_now() && !pc->spans_worlds && mc_st.world_dup != MPI_COMM_NULL;
}

/* The model's soundness needs every rank to make, with synchronous sends,
 * the calls and matches it made in this run. A wildcard source can match
 * another message there, and the program can take another path after it
 * (a master's MPI_ANY_SOURCE loop); from then on this rank is not
 * followed. What it learned before stays true where others hold it. */
void mc_sync_wildcard(void)
{
    if (rank_off)
        return;
    rank_off = 1;
    mc_ndeps = 0;
    npending = 0;
}

/* The calling rank's call of a message (fn and site), as k. */
static void msg_call(mc_dep_call *k, int rank, const dep_msg *m, int peer)
{
    memset(k, 0, sizeof *k);
    k->rank = rank;
    k->fn = m->fn;
    k->fortran = m->fortran;
    k->site_mod = m->site_mod;
    k->site_off = m->site_off;
    k->peer = peer;
    k->tag = m->tag;
}

/* Message m from source, about op r (completed at r->at). */
static void apply(op_rec *r, int source, const dep_msg *m)
{
    mc_dep_call other, mine = r->call;
    msg_call(&other, source, m, mc_st.world_rank);
    mine.peer = source;
    if (m->kind == KIND_NOTICE) {
        mc_dep_learn(m->e, m->n, r->at, KIND_NOTICE, &mine, &other);
    } else {
        r->got = 1;
        mc_dep_learn(m->e, m->n, r->at, KIND_DATA, &other, &mine);
    }
}

static void take_pending(op_rec *r, int kind)
{
    for (int i = 0; i < npending;) {
        const dep_msg *m = &pending[i].msg;
        int ours = kind == KIND_NOTICE ? m->serial == r->id.serial
                                       : pending[i].source == r->id.rank && m->serial == r->id.serial;
        if (m->kind == kind && ours) {
            apply(r, pending[i].source, m);
            pending[i] = pending[--npending];
        } else {
            i++;
        }
    }
}

/* Sends ids to dest, about the call fn at (site_mod, site_off); 1 when sent. */
static int tell(int dest, int kind, uint32_t serial, int fn, int fortran, uint64_t site_mod,
                uint64_t site_off, int tag, const mc_dep_id *ids, int n)
{
    out_msg *o = mc_malloc(sizeof *o);
    if (!o)
        return 0;
    memset(&o->msg, 0, sizeof o->msg);
    o->msg.magic = DEP_MAGIC;
    o->msg.kind = kind;
    o->msg.serial = serial;
    o->msg.fn = fn;
    o->msg.fortran = fortran;
    o->msg.tag = tag;
    o->msg.site_mod = site_mod;
    o->msg.site_off = site_off;
    o->msg.n = n;
    memcpy(o->msg.e, ids, (size_t)n * sizeof *ids);
    if (PMPI_Isend(&o->msg, (int)sizeof o->msg, MPI_BYTE, dest, MC_WTAG_NOTICE, mc_st.world_dup,
                   &o->req) != MPI_SUCCESS) {
        free(o);
        return 0;
    }
    mc_env_sent++;      /* MPI_Finalize drains it with the envelopes */
    o->next = outgoing;
    outgoing = o;
    return 1;
}

/* ---- sends ------------------------------------------------------------------ */

/* Before the envelope goes: its number, the send's event, and the data's
 * dependencies: what this rank depends on now, the receiver depends on
 * once it has received this message. They go first, in a message of
 * their own; the envelope's flag tells the receiver to wait for it. */
void mc_sync_envelope(mc_pcomm *pc, mc_env *e)
{
    if (!mc_sync_modelled(pc)) {
        /* What this rank sends now may carry what synchronous sends would
         * not have let it know: its receivers are followed no further. */
        if (mc_eng_strict)
            e->flags |= MC_ENV_OFF;
        return;
    }
    if (++next_serial == 0)
        next_serial = 1;
    e->serial = envelope_serial = next_serial;
    envelope_event = ++mc_dep_events;
    if (mc_ndeps)
        mc_dep_prune_acked();
    if (!mc_ndeps)
        return;
    int dest = mc_pcomm_world_rank(pc, e->dest);
    if (dest < 0 || dest == mc_st.world_rank)
        return;
    mc_dep_id ids[MC_DEP_WIRE];
    int n = 0;
    double now = 0.0;
    for (int i = 0; i < mc_ndeps && n < MC_DEP_WIRE; i++) {
        mc_dep_entry *d = &mc_deps[i];
        /* Not a send of this rank's to the same destination and tag on
         * this communicator: any receive that takes this message takes
         * that one first (non-overtaking), so it can close no cycle, and
         * a stream of sends let go would tell one for each. */
        if (d->own && d->comm == pc->comm && d->send.peer == dest && d->send.tag == e->tag)
            continue;
        if (mc_dep_in_at(d, envelope_event) && d->id.rank != dest && mc_dep_may_tell(d, dest, &now)
            && !mc_dep_told(d->told_data, &d->ntold_data, dest))
            ids[n++] = d->id;
    }
    if (n && tell(dest, KIND_DATA, e->serial, e->fn, (e->flags & MC_ENV_FORTRAN) != 0, e->site_mod,
                  e->site_off, e->tag, ids, n))
        e->flags |= MC_ENV_DEPS;
}

/* An envelope the model does not number (MPI_Bsend's, a rank's while it
 * runs threads of its own): it still says whether the sender is followed. */
void mc_sync_envelope_other(mc_pcomm *pc, mc_env *e)
{
    if (!mc_sync_modelled(pc))
        e->flags |= MC_ENV_OFF;
}

void mc_sync_send_started(const mc_call *c, mc_prec *p, mc_env_slot *s)
{
    p->wslot = s;
    p->wgen = s ? s->gen : 0;
    p->dep_serial = s && s->env.serial && s->env.serial == envelope_serial ? s->env.serial : 0;
    if (!p->dep_serial)
        return;
    p->dep_posted = envelope_event;
    sent[p->dep_serial % DEP_SENT] = (op_rec){
        .id = {mc_st.world_rank, p->dep_serial},
        .call = {.rank = mc_st.world_rank, .fn = c->fn, .fortran = (c->fortran & MC_LANG_FORTRAN) != 0,
                 .caller = c->caller, .peer = -1, .tag = p->tag},
    };
}

static void send_completed(mc_prec *p)
{
    if (rank_off)
        return;
    op_rec *r = &sent[p->dep_serial % DEP_SENT];
    if (r->id.serial == p->dep_serial && !r->done) {
        r->done = 1;
        r->at = mc_dep_events;
        take_pending(r, KIND_NOTICE);
    }
    /* Let go: its envelope's slot is still this send's and not done. A
     * send let go after a potential deadlock was reported at its call site
     * is that finding already. */
    mc_env_slot *s = p->wslot;
    if (!s || s->gen != p->wgen || mc_env_slot_done(s) || mc_dl_site_reported(p->caller))
        return;
    mc_dep_id id = {mc_st.world_rank, p->dep_serial};
    mc_dep_entry *d = mc_dep_find(id);
    if (!d && !(d = mc_dep_add()))
        return;
    mc_pcomm *pc = mc_pcomm_get(p->comm);
    d->id = id;
    d->own = 1;
    d->comm = p->comm;
    d->slot = s;
    d->gen = s->gen;
    d->quick = mc_dl_site_relaxed(p->caller);
    d->acked_at = 0;
    d->from = mc_dep_events;
    d->send = mc_dep_same(r->id, id) ? r->call : (mc_dep_call){.rank = mc_st.world_rank};
    d->send.peer = pc ? mc_pcomm_world_rank(pc, p->peer) : -1;
    s->dep_own = 1;
    mc_dep_check_matched((int)(d - mc_deps));
}

void mc_sync_acked(uint32_t serial)
{
    mc_dep_id id = {mc_st.world_rank, serial};
    mc_dep_entry *d = mc_dep_find(id);
    if (d && d->own)
        mc_dep_seen_acked((int)(d - mc_deps));
}

/* ---- receives --------------------------------------------------------------- */

uint64_t mc_sync_posting(mc_pcomm *pc)
{
    return mc_eng_strict && mc_sync_modelled(pc) ? ++mc_dep_events : 0;
}

/* A receive whose envelope says the sender told it dependencies (the
 * others have none to learn). */
static void recv_completed(mc_prec *p)
{
    const mc_env *e = &p->env;
    if (!rank_off && p->checked && !p->cancelled && e->magic == MC_ENV_MAGIC && (e->flags & MC_ENV_OFF))
        mc_sync_wildcard();
    if (rank_off || !p->dep_posted || !p->checked || p->cancelled || e->magic != MC_ENV_MAGIC
        || !e->serial || !(e->flags & MC_ENV_DEPS))
        return;
    op_rec *r = &recvd[recvd_next];
    recvd_next = (recvd_next + 1) % DEP_RECVD;
    *r = (op_rec){
        .id = {e->world_rank, e->serial},
        .done = 1,
        .at = mc_dep_events,
        .call = {.rank = mc_st.world_rank, .fn = p->fn, .fortran = (p->fortran & MC_LANG_FORTRAN) != 0,
                 .caller = p->caller, .peer = e->world_rank, .tag = e->tag},
    };
    if (npending)
        take_pending(r, KIND_DATA);
    /* The sender told them before the envelope: take them in before the
     * program goes on (its next send must carry them). They are on their
     * way; a bounded wait, never a hang. */
    if (!r->got && !dropped) {
        double until = mc_eng_now() + DEP_DATA_WAIT_S;
        while (!r->got && mc_eng_now() < until)
            if (!mc_notice_take_from(e->world_rank))
                sched_yield();
    }
}

/* A test, or a choice among requests (MPI_Waitany, MPI_Waitsome), told
 * the program that something completed: with synchronous sends the call
 * may have answered otherwise here (not complete yet, or another request:
 * rank 0's MPI_Waitany over two sends to a computing rank 1 returns the
 * one rank 1 receives last), and the program may go on along a path they
 * would not allow, or act on a completion they would have given later.
 * Which answers synchronous sends would have given cannot be told here
 * (a send's receive may have been posted while its rank depended on a
 * send let go: the notice comes later), so, like a wildcard receive, any
 * such answer ends the model's following of the rank. Its later messages
 * say so (MC_ENV_OFF), and so do its collectives (synccoll.c). */
void mc_sync_looked(void)
{
    if (!rank_off && mc_eng_strict)
        mc_sync_wildcard();
}

void mc_sync_completed(mc_prec *p, int chosen)
{
    if (!mc_eng_strict)
        return;
    if (chosen)
        mc_sync_looked();
    if (p->kind == MC_PR_PAIR) {
        if (p->pair_s)
            mc_sync_completed(p->pair_s, 0);
        if (p->pair_r)
            mc_sync_completed(p->pair_r, 0);
    } else if (p->kind == MC_PR_SEND && p->dep_serial) {
        send_completed(p);
    } else if (p->kind == MC_PR_RECV) {
        recv_completed(p);
    }
}

void mc_sync_matched(mc_prec *p)
{
    const mc_env *e = &p->env;
    if (rank_off || e->magic != MC_ENV_MAGIC || !e->serial)
        return;
    mc_dep_matched *m = mc_dep_match_slot();
    *m = (mc_dep_matched){
        .id = {e->world_rank, e->serial},
        .posted = p->dep_posted,
        .recv = {.rank = mc_st.world_rank, .fn = p->fn, .fortran = (p->fortran & MC_LANG_FORTRAN) != 0,
                 .caller = p->caller, .peer = e->world_rank, .tag = e->tag},
        .send = {.rank = e->world_rank, .fn = e->fn, .fortran = (e->flags & MC_ENV_FORTRAN) != 0,
                 .site_mod = e->site_mod, .site_off = e->site_off, .peer = mc_st.world_rank, .tag = e->tag},
    };
    if (!mc_ndeps)
        return;
    mc_dep_entry *d = mc_dep_find(m->id);
    if (d) {
        if (d->from < m->posted)
            mc_dep_report(m, d);
        mc_dep_remove((int)(d - mc_deps));     /* received now: it closes no later cycle */
    }
    mc_dep_prune_acked();
    mc_dep_id ids[MC_DEP_WIRE];
    int n = 0;
    double now = 0.0;
    for (int i = 0; i < mc_ndeps; i++) {
        d = &mc_deps[i];
        /* The sender's send completes, in the model, only once this
         * receive is posted: what this rank depended on then, it depends
         * on from that completion. Not for a buffered send (it never
         * waits), not about its own sends, not to this rank itself. */
        if (mc_dep_in_at(d, m->posted) && e->mode != MC_SEND_BUFFERED && d->id.rank != e->world_rank
            && e->world_rank != mc_st.world_rank && n < MC_DEP_WIRE && mc_dep_may_tell(d, e->world_rank, &now)
            && !mc_dep_told(d->told_notice, &d->ntold_notice, e->world_rank))
            ids[n++] = d->id;
    }
    if (!n)
        return;
    uint64_t mod, off;
    mc_site_encode(p->caller, &mod, &off);
    tell(e->world_rank, KIND_NOTICE, e->serial, p->fn, m->recv.fortran, mod, off, e->tag, ids, n);
}

/* ---- messages in ------------------------------------------------------------ */

void mc_sync_notice(int source, const void *buf, int len)
{
    dep_msg m;
    if (rank_off || len != (int)sizeof m)
        return;
    memcpy(&m, buf, sizeof m);
    if (m.magic != DEP_MAGIC || m.n <= 0 || m.n > MC_DEP_WIRE)
        return;
    op_rec *r = NULL;
    if (m.kind == KIND_NOTICE) {
        r = &sent[m.serial % DEP_SENT];
        if (r->id.serial != m.serial)
            return;     /* too old to know its completion: a miss at most */
    } else if (m.kind == KIND_DATA) {
        for (int i = 0; i < DEP_RECVD && !r; i++)
            if (recvd[i].done && recvd[i].id.rank == source && recvd[i].id.serial == m.serial)
                r = &recvd[i];
    } else {
        return;
    }
    if (r && r->done) {
        apply(r, source, &m);
    } else if (npending < DEP_PENDING) {
        pending[npending].source = source;
        pending[npending].since = mc_eng_now();
        pending[npending++].msg = m;
    } else {
        dropped = 1;
    }
}

void mc_sync_service(void)
{
    for (out_msg **pp = &outgoing; *pp;) {
        out_msg *o = *pp;
        int flag = 0;
        PMPI_Test(&o->req, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            *pp = o->next;
            free(o);
        } else {
            pp = &o->next;
        }
    }
    if (!mc_ndeps && !npending)
        return;
    double t = mc_eng_now();
    for (int i = 0; i < npending;) {
        if (t - pending[i].since > DEP_LEARNED_TTL_S)
            pending[i] = pending[--npending];
        else
            i++;
    }
    for (int i = 0; i < mc_ndeps;) {
        const mc_dep_entry *d = &mc_deps[i];
        if ((!d->own && t - d->since > DEP_LEARNED_TTL_S) || (d->acked_at && t - d->since > DEP_ACKED_TTL_S))
            mc_dep_remove(i);
        else
            i++;
    }
}
