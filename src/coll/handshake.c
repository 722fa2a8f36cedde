/*
 * handshake.c - the collective handshake: before the real collective, the
 * members combine their records (record.c) with one MPI_Iallreduce(MPI_MAX)
 * of a fixed-size vector on the communicator's shadow (or, on a
 * communicator with many collectives, the same reduction by point-to-point
 * on a copy of the shadow: hs_p2p.c), polled in the p2p engine's wait loop
 * (timeout, deadlock detection). Everyone then holds the same verdict
 * (collrec.c). Only when members disagree do they send their call's
 * details, to one member, which writes one finding.
 *
 * v-variants need a second look (vexch.c): an exchange of 32-byte parts
 * along the operation's own pattern, then a second reduction of one flag.
 * Neighbor collectives take the same path, their parts travelling along the
 * topology's edges (neighbor.c).
 *
 * Nonblocking and persistent collectives start their handshake in the call
 * and it finishes in the background (mc_coll_service, from every engine
 * wait and p2p call): a nonblocking call must not wait for the others.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "coll_internal.h"
#include "calltext.h"
#include "hooks.h"
#include "runtime.h"
#include "report.h"
#include "state.h"
#include "typesig.h"
#include "skipped.h"
#include "rank_board.h"

int mc_coll_npending;
long long mc_hs_nended;         /* nonblocking handshakes ended so far */
static hs_t *pending;           /* nonblocking handshakes still running */
static hs_t *blocking_now;      /* the blocking handshake this rank waits in */

hs_t *mc_hs_pending(void)
{
    return pending;
}

int mc_coll_started_keys(uint64_t *out, int max)
{
    int n = 0;
    if (blocking_now && n++ < max)
        out[n - 1] = blocking_now->key;
    for (hs_t *h = pending; h; h = h->next)
        if (n++ < max)
            out[n - 1] = h->key;
    return n;
}

/* Whether the handshake ends with its first reduction: when any member's
 * call is nonblocking or persistent (decided from the combined record, so
 * all members agree even when blocking meets nonblocking). */
static int one_stage(const hs_t *h)
{
    int64_t lo, hi;
    return mc_collrec_get(&h->all, MC_CR_ONESTAGE, &lo, &hi) && hi > 0;
}

/* What the model of synchronous sends (p2p/synccoll.c) makes of the first
 * combined record, the same on every member: MC_COLL_DEPS_OFF, some member
 * is not followed (then no member is); 1, a blocking handshake ends with
 * the reduction of the members' dependencies; 0, nothing. */
static int deps_state(const hs_t *h)
{
    /* The field's largest value (collrec.h's slot[2f]) first: mostly absent. */
    int64_t v = h->all.slot[2 * MC_CR_DEPS];
    if (v >= MC_COLL_DEPS_OFF)
        return MC_COLL_DEPS_OFF;
    return v > 0 && !h->inter && !one_stage(h) && mc_p2p_hook.coll_deps_start && mc_p2p_hook.coll_deps_end;
}

/* Runs the handshake as far as it can without waiting. 1 when it is done. */
static int advance(hs_t *h)
{
    if (h->queued)
        return 0;
    if (h->p2p == MC_HS_P2P_RUNNING) {     /* the first reduction by point-to-point (hs_p2p.c) */
        int d = mc_hs_p2p_progress(h);
        if (d == 0)
            return 0;
        if (d < 0) {
            h->stage = HS_DONE;
            mc_skipped(MC_SKIP_COLL_HANDSHAKE);
            return 1;
        }
    }
    for (;;) {
        if (h->stage == HS_DONE)
            return 1;
        if (h->req != MPI_REQUEST_NULL) {
            int flag = 0;
            if (PMPI_Test(&h->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                h->req = MPI_REQUEST_NULL;
                h->stage = HS_DONE;
                return 1;
            }
            if (!flag)
                return 0;
        }
        int rc = MPI_SUCCESS;
        switch (h->stage) {
        case HS_REDUCE:
        case HS_REDUCE2:
            h->verdict = mc_collrec_verdict(&h->all, h->inter);
            if (h->stage == HS_REDUCE && (h->deps = deps_state(h)) == MC_COLL_DEPS_OFF) {
                mc_p2p_hook.sync_off();
                h->deps = 0;
            }
            if (one_stage(h)) {
                /* Nonblocking: one stage only. Its reduction was started in
                 * the call, in call order; a second collective started now
                 * could come before a later call's reduction on one member
                 * and after it on another, and the shadow's collectives
                 * would no longer match. */
                if (h->verdict && h->flat_rank == 0)
                    mc_hs_write_short_finding(h);
                h->stage = HS_DONE;
                h->clean = !h->verdict;
            } else if (!h->verdict && h->stage == HS_REDUCE && mc_vexch_runs(h)) {
                h->stage = HS_VEXCH;
                rc = mc_vexch_start(h);
            } else if (h->verdict) {
                h->stage = HS_DSIZE;
                rc = mc_hs_start_details(h);
            } else if (h->deps) {
                h->stage = HS_DEPS;
                rc = mc_p2p_hook.coll_deps_start(h->comm, h->flat, h->deps_mine, h->deps_all, &h->req);
            } else {
                h->stage = HS_DONE;
                h->clean = 1;
            }
            break;
        case HS_DEPS:
            mc_p2p_hook.coll_deps_end(h->comm, h->deps_all, h->call);
            h->stage = HS_DONE;
            h->clean = 1;
            break;
        case HS_VEXCH:
            mc_vexch_judge(h);
            mc_collrec_init(&h->mine);
            mc_collrec_put(&h->mine, MC_CR_KIND, 1);
            mc_collrec_put(&h->mine, MC_CR_VBAD, h->vbad);
            h->stage = HS_REDUCE2;
            rc = PMPI_Iallreduce(h->mine.slot, h->all.slot, h->inter ? MC_CR_SLOTS : MC_CR_INTRA_SLOTS, MPI_INT64_T,
                               MPI_MAX, h->flat, &h->req);
            break;
        case HS_DSIZE:
            h->stage = HS_DDATA;
            rc = mc_hs_start_details_data(h);
            break;
        case HS_DDATA:
            if (h->flat_rank == 0)
                mc_hs_write_finding(h);
            h->stage = HS_DONE;
            break;
        }
        if (rc != MPI_SUCCESS) {
            h->req = MPI_REQUEST_NULL;
            h->stage = HS_DONE;
        }
    }
}

/* Records kept back for when the checker's memory runs out. A member that
 * skipped its handshake alone would leave the others waiting in theirs for
 * good, so a collective never goes without a record while one is here; the
 * reserve is refilled from records freed later.
 * Freed records also wait here, up to HS_POOL, for the next collective:
 * calloc and free of a record cost some 800 of the 3,100 instructions a
 * handshake of MPI_Barrier costs (callgrind, bench/instructions.c). Only
 * the records above the reserve are handed out while memory lasts. */
#define HS_RESERVE 4
#define HS_POOL 16
static hs_t *reserve[HS_POOL];
static int nreserve;
/* hs_free runs with and without the engine lock: the reserve has its own,
 * innermost (it calls nothing that locks). */
static pthread_mutex_t reserve_lock = PTHREAD_MUTEX_INITIALIZER;

/* A record from the pool, cleared but for what every handshake writes
 * before it reads it: the two collective records (mc_rec_build and
 * mc_collrec_init), the text buffers past their first byte, the call's
 * origin arrays past their counts, and the point-to-point plan and its
 * buffers (hs_p2p.c writes them before it sends or reads them). A memset
 * of the whole 3 KB was a fifth of a small collective's instructions
 * (docs/performance.md). */
static void hs_clear(hs_t *h)
{
    MC_ZERO_RANGE(h, 0, offsetof(hs_t, mine));
    MC_ZERO_RANGE(h, offsetof(hs_t, all) + sizeof h->all, offsetof(hs_t, vnote));
    h->vnote[0] = '\0';
    MC_ZERO_RANGE(h, offsetof(hs_t, vnote) + sizeof h->vnote, offsetof(hs_t, summary));
    h->summary[0] = '\0';
    mc_origin_clear(&h->origin);
    MC_ZERO_RANGE(h, offsetof(hs_t, origin) + sizeof h->origin, offsetof(hs_t, p2p_ops));
    MC_ZERO_RANGE(h, offsetof(hs_t, p2p_ops) + sizeof h->p2p_ops, offsetof(hs_t, p2p_acc));
}

static hs_t *hs_alloc(void)
{
    hs_t *h = NULL;
    pthread_mutex_lock(&reserve_lock);
    if (nreserve > HS_RESERVE)
        h = reserve[--nreserve];
    pthread_mutex_unlock(&reserve_lock);
    if (h) {
        hs_clear(h);
        return h;
    }
    /* A reserve used is filled again by hs_free. */
    h = mc_calloc(1, sizeof *h);
    if (!h) {
        pthread_mutex_lock(&reserve_lock);
        if (nreserve > 0)
            h = reserve[--nreserve];
        pthread_mutex_unlock(&reserve_lock);
        if (h)
            hs_clear(h);
    }
    return h;
}

void mc_hs_reserve_fill(void)
{
    pthread_mutex_lock(&reserve_lock);
    while (nreserve < HS_RESERVE) {
        hs_t *h = mc_calloc(1, sizeof *h);
        if (!h)
            break;
        reserve[nreserve++] = h;
    }
    pthread_mutex_unlock(&reserve_lock);
}

static void hs_free(hs_t *h)
{
    if (h->req != MPI_REQUEST_NULL || h->p2p)
        return;     /* still in MPI's hands: leaked rather than freed under it */
    free(h->vsend);
    free(h->vrecv);
    free(h->dmine);
    free(h->dall);
    free(h->dlens);
    free(h->ddispls);
    pthread_mutex_lock(&reserve_lock);
    if (nreserve < HS_POOL) {
        reserve[nreserve++] = h;
        h = NULL;
    }
    pthread_mutex_unlock(&reserve_lock);
    free(h);
}

/* After a verdict that makes going on unsafe: the reporting member ends the
 * job (with --abort-on-deadlock=yes, the default); the others wait for that
 * instead of running into the hang or the overwrite. */
static void after_verdict(hs_t *h)
{
    if (!h->verdict || !mc_collrec_unsafe(h->verdict) || !mc_st.cfg.abort_on_deadlock)
        return;
    if (h->flat_rank == 0)
        mc_report_abort_job("collective mismatch (going on would hang MPI or make it write past a buffer; "
                            "--abort-on-deadlock=no lets MPI go on)");
    for (int i = 0; i < 20000; i++) {      /* 20 s at most */
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* ---- waiting -------------------------------------------------------------- */

static int hs_ready(void *ctx)
{
    hs_t *h = ctx;
    if (h->queued)
        mc_sq_drive();
    return advance(h);
}

/* A member waits for every other member of the collective: one clause
 * each, keyed with the instance (members that started it count as there). */
static void describe_members(MPI_Comm flat, int flat_rank, int n, uint64_t key, mc_waitfor *w)
{
    MPI_Group g, wg;
    if (flat == MPI_COMM_NULL || PMPI_Comm_group(flat, &g) != MPI_SUCCESS) {
        w->unknown = 1;
        return;
    }
    PMPI_Comm_group(mc_st.world_dup, &wg);
    int *in = mc_malloc((size_t)n * sizeof *in), *out = mc_malloc((size_t)n * sizeof *out);
    if (in && out) {
        for (int i = 0; i < n; i++)
            in[i] = i;
        if (PMPI_Group_translate_ranks(g, n, in, wg, out) == MPI_SUCCESS) {
            for (int i = 0; i < n; i++) {
                if (i == flat_rank)
                    continue;
                mc_waitfor_clause_key(w, key);
                mc_waitfor_add(w, out[i] == MPI_UNDEFINED ? -1 : out[i]);
            }
        }
    }
    free(in);
    free(out);
    PMPI_Group_free(&g);
    PMPI_Group_free(&wg);
}

static void hs_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    hs_t *h = ctx;
    describe_members(h->flat, h->flat_rank, h->flat_size, h->key, w);
}

/* The nonblocking collectives whose handshake found every member in the
 * same call, the newest CLEAN_MAX. A wait for one of them waits for data
 * MPI moves without another call of any member: no member's clause (a
 * member that finished the call no longer lists it as started, and its
 * next wait on this rank made a false deadlock: hang_ok_slow_icollective.c),
 * and its bytes give the hang watch a credit (the wait board:
 * runtime/wait_board.c). A wait for an older one falls back to the
 * members' clauses. */
#define CLEAN_MAX 256
static uint64_t clean_key[CLEAN_MAX], clean_bytes[CLEAN_MAX];
static int clean_next;

static void remember_clean(uint64_t key, uint64_t bytes)
{
    clean_key[clean_next] = key;
    clean_bytes[clean_next] = bytes;
    clean_next = (clean_next + 1) % CLEAN_MAX;
}

void mc_coll_describe_members(mc_pcomm *pc, uint64_t key, mc_waitfor *w)
{
    for (int i = 0; i < CLEAN_MAX && key; i++)
        if (clean_key[i] == key) {
            w->moving++;
            w->moving_bytes += clean_bytes[i];
            if (!w->list_moving)
                return;
            break;
        }
    w->npending++;
    describe_members(pc->flat, pc->flat_rank, pc->flat_size, key, w);
}

/* ---- entry ---------------------------------------------------------------- */

static int start_first_reduction(void *ctx)
{
    hs_t *h = ctx;
    h->queued = 0;
    int rc = PMPI_Iallreduce(h->mine.slot, h->all.slot, h->inter ? MC_CR_SLOTS : MC_CR_INTRA_SLOTS, MPI_INT64_T,
                             MPI_MAX, h->flat, &h->req);
    if (rc != MPI_SUCCESS) {
        h->req = MPI_REQUEST_NULL;
        h->stage = HS_DONE;
        mc_skipped(MC_SKIP_COLL_HANDSHAKE);
    }
    return rc;
}

void mc_coll_enter(mc_call *c)
{
    const mc_coll_fn *f = mc_coll_fn_of(c->fn);
    if (!f || !mc_eng_on || mc_st.finalizing)
        return;
    MPI_Comm comm;
    if (f->comm_ptr) {
        const MPI_Comm *pcm = c->vals[f->a_comm].p;
        comm = pcm ? *pcm : MPI_COMM_NULL;
    } else {
        comm = c->vals[f->a_comm].comm;
    }
    if (comm == MPI_COMM_NULL)
        return;
    mc_coll_check_overlap(c, f, comm);
    mc_eng_lock();
    mc_pcomm *pc = mc_pcomm_get(comm);
    hs_t *h = NULL;
    if (!pc || pc->coll_off || pc->flat == MPI_COMM_NULL || !(h = hs_alloc())) {
        /* No handshake on this communicator: one without a private copy
         * was counted when it was made; the others are counted here. */
        if (pc)
            mc_skipped(MC_SKIP_COLL_HANDSHAKE);
        if (mc_coll_nheld)
            mc_coll_held_flush(comm);   /* held ones go to MPI first */
        mc_eng_unlock();
        return;
    }
    pc->coll_seq++;
    h->req = MPI_REQUEST_NULL;
    h->f = f;
    h->fn = c->fn;
    h->comm = comm;
    h->flat = pc->flat;
    h->shadow = pc->shadow;
    h->inter = pc->is_inter;
    h->group = pc->group;
    h->comm_rank = pc->rank;
    h->flat_rank = pc->flat_rank;
    h->flat_size = pc->flat_size;
    h->npeers = pc->is_inter ? pc->remote_size : pc->size;
    h->root_arg = f->a_root >= 0 ? c->vals[f->a_root].i : -1;
    h->twin = MPI_COMM_NULL;
    h->key = mc_collrec_mix(pc->cid, pc->coll_seq);
    c->coll_key = h->key;
    h->caller = c->caller;
    mc_rec_build(c, f, h, &h->mine);
    if (mc_board_on && mc_coll_per_peer(f))
        h->own_bytes = mc_coll_own_bytes(c, f, comm);   /* for the hang watch's credit */
    mc_collrec_init(&h->all);   /* an intracommunicator's reduction fills only the first slots */
    mc_vexch_prepare(c, h);
    int vshape = f->shape == MC_SH_GATHERV || f->shape == MC_SH_SCATTERV
                 || f->shape == MC_SH_ALLTOALLV || f->shape == MC_SH_ALLTOALLW;
    if (vshape && (c->invalid || !h->vsend || !h->vrecv))
        mc_collrec_put(&h->mine, MC_CR_NOVEX, 1);
    int blocking = f->variant == MC_VAR_BLOCKING;
    /* A blocking neighbor collective: its parts per edge, for the exchange
     * on the twin after a clean first reduction (neighbor.c). A member that
     * cannot take part says so, and none takes part. */
    if (f->shape == MC_SH_NEIGHBOR && blocking && !mc_nbr_prepare(c, h, pc))
        mc_collrec_put(&h->mine, MC_CR_NOVEX, 1);
    if (!blocking)
        mc_collrec_put(&h->mine, MC_CR_ONESTAGE, 1);
    /* A persistent collective's later starts have no handshake to say
     * whether a member is still followed by the model of synchronous
     * sends: none is followed from its making. */
    if (f->variant == MC_VAR_PERSISTENT && mc_p2p_hook.sync_off)
        mc_p2p_hook.sync_off();
    int deps = mc_p2p_hook.coll_deps_enter ? mc_p2p_hook.coll_deps_enter(pc, blocking) : 0;
    if (deps)
        mc_collrec_put(&h->mine, MC_CR_DEPS, deps);
    if (!blocking) {
        /* Everything a later report needs, taken now. */
        mc_hs_summarize(h, c);
        mc_origin_capture(&h->origin, c, 1);
    } else {
        h->call = c;
    }
    /* The first reduction: by point-to-point on the communicator's copy
     * once every member has one (hs_p2p.c); else now, or in order once a
     * copy of the shadow the checker is making has ended (shadow_queue.c). */
    mc_hs_p2p_enter(pc, h, blocking);
    int rc = MPI_SUCCESS, failed;
    if (pc->hs_p2p) {
        failed = mc_hs_p2p_start(h, pc) != MPI_SUCCESS;
        if (failed)
            mc_skipped(MC_SKIP_COLL_HANDSHAKE);
    } else {
        h->queued = 1;
        failed = mc_sq_submit(h->flat, start_first_reduction, h, &rc) && rc != MPI_SUCCESS;
    }
    if (failed) {
        hs_free(h);
        if (mc_coll_nheld)
            mc_coll_held_flush(comm);
        mc_eng_unlock();
        return;
    }
    if (!blocking) {
        h->next = pending;
        pending = h;
        mc_coll_npending++;
        /* Held until the handshake ended (held.c), or, when not, what was
         * held on this communicator goes to MPI first: MPI matches the
         * collectives of a communicator in the order they are called. */
        c->hold = mc_coll_may_hold(c, comm);
        if (!c->hold && mc_coll_nheld)
            mc_coll_held_flush(comm);
        /* Not tested here: a test drives MPI's progress, and a nonblocking
         * call of the application's does not (Open MPI's MPI_Comm_idup
         * starts its later rounds from progress, and a rank that progressed
         * between two of the application's nonblocking collective calls
         * and its peers that did not pair those rounds with different
         * collectives: the application's own idups then hang). */
        mc_eng_unlock();
        return;
    }
    blocking_now = h;
    mc_eng_wait(c, hs_ready, hs_describe, h);
    blocking_now = NULL;
    c->synced = mc_hs_p2p_synced(h);
    mc_hs_p2p_after(pc, h);
    /* What was held on this communicator is called before this one
     * (handshakes end in order: theirs have ended too, as a rule). */
    if (mc_coll_nheld)
        mc_coll_held_flush(comm);
    mc_eng_unlock();
    after_verdict(h);
    /* Every member is in this call with matching arguments: MPI completes
     * it without another call, however long it moves data. (Not for the
     * calls without data, nor without a board to write it on.) */
    if (h->clean && f->shape != MC_SH_BARRIER && mc_board_on)
        mc_board_coll_moving(c->fn, mc_coll_volume(h));
    hs_free(h);
}

/* Whether a handshake still running uses comm, or a copy of it is queued
 * or running (commid.c frees the checker's communicators only when none). */
int mc_coll_comm_busy(MPI_Comm comm)
{
    if (mc_sq_uses(comm))
        return 1;
    for (hs_t *h = pending; h; h = h->next)
        if (h->flat == comm || h->shadow == comm || (h->p2p && h->p2p_comm == comm))
            return 1;
    return 0;
}

void mc_coll_service(void)
{
    int ended = 0;
    for (hs_t **pp = &pending; *pp;) {
        hs_t *h = *pp;
        if (advance(h)) {
            *pp = h->next;
            mc_coll_npending--;
            mc_hs_nended++;
            if (h->clean)
                remember_clean(h->key, h->f->shape != MC_SH_BARRIER && mc_board_on ? mc_coll_volume(h) : 0);
            after_verdict(h);
            hs_free(h);
            ended = 1;
        } else {
            pp = &h->next;
        }
    }
    if (ended)
        mc_coll_free_retired();
    if (mc_coll_nheld)
        mc_coll_held_drive();
}

/* MPI_Finalize: handshakes still running get a moment, then are left. */
void mc_coll_finalize(void)
{
    mc_coll_held_flush(MPI_COMM_NULL);
    mc_nbr_finalize();
    for (int i = 0; pending && i < 1000; i++) {
        mc_coll_service();
        if (pending) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
}

void mc_coll_register(void)
{
    mc_coll_hook = (mc_coll_hooks){
        .npending = &mc_coll_npending,
        .service = mc_coll_service,
        .finalize = mc_coll_finalize,
        .unmatched = mc_coll_unmatched,
        .comm_predefined = mc_coll_comm_predefined,
        .comm_created = mc_coll_comm_created,
        .comm_ready = mc_coll_comm_ready,
        .comm_freed = mc_coll_comm_freed,
        .release_comm = mc_coll_release_comm,
        .free_retired = mc_coll_free_retired,
        .started_keys = mc_coll_started_keys,
        .describe_members = mc_coll_describe_members,
        .held_progress = mc_coll_held_progress,
    };
}

static int claims(int fn)
{
    return mc_coll_fn_of(fn) != NULL;
}

static void leave(mc_call *c, int ok)
{
    if (mc_board_on)
        mc_board_coll_moving(-1, 0);
    if (ok)
        mc_coll_leave(c);
}

/* Every call while the engine runs: the handshake goes before anything of
 * the call happens (MPI_Comm_free's tracking lets go of the shadow). */
const mc_module mc_coll_module = {
    .name = "coll",
    .engine = 1,
    .claims = claims,
    .enter = mc_coll_enter,
    .leave = leave,
    .load = mc_coll_register,
};
