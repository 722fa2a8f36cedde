/*
 * engine.c - the engine's request records, its start and end, and the wait
 * loop every blocking p2p point runs in (communicators and their shadows:
 * comms.c; what a wait waits for: waitfor.c).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <utlist.h>
#include "runtime_internal.h"
#include "skipped.h"
#include "wait_board.h"
#include "rank_board.h"
#include "objects.h"
#include "report.h"
#include "state.h"
#include "typesig.h"

int mc_eng_on;
int mc_eng_strict;
long long mc_env_sent, mc_env_received;
int mc_eng_final_waits;

mc_p2p_hooks mc_p2p_hook;
mc_coll_hooks mc_coll_hook;

int mc_hooks_complete(void)
{
    const mc_p2p_hooks *p = &mc_p2p_hook;
    const mc_coll_hooks *c = &mc_coll_hook;
    return p->prec_progress && p->recv_drive && p->recv_pending_deferred && p->recv_cancel
        && p->recv_comm_freeing && p->env_reap && p->env_release && p->env_slot_done && p->completed
        && p->lost_report && c->npending && c->service && c->finalize && c->unmatched && c->comm_predefined
        && c->comm_created && c->comm_ready && c->comm_freed && c->release_comm
        && c->free_retired && c->started_keys && c->describe_members;
}

static pthread_mutex_t eng_mutex = PTHREAD_MUTEX_INITIALIZER;
void mc_eng_lock(void) { if (mc_st.thread_level == MPI_THREAD_MULTIPLE) pthread_mutex_lock(&eng_mutex); }
void mc_eng_unlock(void) { if (mc_st.thread_level == MPI_THREAD_MULTIPLE) pthread_mutex_unlock(&eng_mutex); }

/* ---- requests ----------------------------------------------------------- */

/* The held records, newest first (the table finds one by handle; these
 * walks need all): a utlist list, whose head's live_prev is the tail.
 * Engine lock. */
static mc_prec *live;
static int nprecs;

mc_prec *mc_prec_find(MPI_Request user)
{
    return mc_prec_find_entry(user, NULL);
}

mc_prec *mc_prec_find_entry(MPI_Request user, mc_obj **entry)
{
    if (!live)
        return NULL;
    MC_LOCK();
    mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(user));
    mc_prec *p = o ? o->ext : NULL;
    MC_UNLOCK();
    if (entry)
        *entry = p ? o : NULL;
    return p;
}

/* The instances of the nonblocking collectives whose requests this rank
 * still holds: it started them, whether or not their handshake ended. */
mc_prec *mc_prec_live(void)
{
    return live;
}

int mc_prec_coll_keys(uint64_t *out, int max)
{
    int n = 0;
    for (mc_prec *p = live; p; p = p->live_next)
        if (p->kind == MC_PR_COLL && p->active && p->coll_key && n++ < max)
            out[n - 1] = p->coll_key;
    return n;
}

/* Records kept back for when the checker's memory runs out: a receive
 * posted without its record has no mirror, and the next receive's mirror
 * would take its envelope and pair every later message wrongly. Refilled
 * from records freed later. Engine lock.
 * Freed records also wait here, up to PREC_POOL, for the next operation:
 * a message costs two records, and calloc plus free for each cost some
 * 1,000 instructions a message (callgrind, bench/instructions.c). Only the
 * records above the reserve are handed out while memory lasts. */
#define PREC_RESERVE 16
#define PREC_POOL 80
static mc_prec *reserve[PREC_POOL];
static int nreserve;

static void reserve_fill(void)
{
    while (nreserve < PREC_RESERVE) {
        mc_prec *p = mc_malloc(sizeof *p);
        if (!p)
            return;
        reserve[nreserve++] = p;
    }
}

/* Zeroes a pooled record but for the arrays its users fill before they
 * read them: the origin's values, stack and ids (counted by nvals, npcs,
 * nids, which are zeroed) and the received envelope (read only once a
 * mirror wrote it, p->checked). Half of the 1,088 bytes, and a memset of
 * the whole record was the largest single cost of a message's bookkeeping
 * (docs/performance.md). */
static void prec_clear(mc_prec *p)
{
    MC_ZERO_RANGE(p, 0, offsetof(mc_prec, obj.origin));
    mc_origin_clear(&p->obj.origin);
    MC_ZERO_RANGE(p, offsetof(mc_prec, obj.origin) + sizeof p->obj.origin, offsetof(mc_prec, env));
    MC_ZERO_RANGE(p, offsetof(mc_prec, env) + sizeof p->env, sizeof *p);
}

mc_prec *mc_prec_alloc(void)
{
    mc_prec *p = NULL;
    if (nreserve > PREC_RESERVE) {
        p = reserve[--nreserve];
        prec_clear(p);
    } else {
        p = mc_calloc(1, sizeof *p);
        if (!p && nreserve > 0) {     /* refilled by mc_prec_free */
            p = reserve[--nreserve];
            prec_clear(p);
        }
    }
    if (p)
        p->real = p->mirror = p->user = MPI_REQUEST_NULL;
    return p;
}

void mc_prec_free(mc_prec *p)
{
    mc_board_progress();    /* an operation ended: the rank moves (hang watch) */
    if (p->type_owned)
        PMPI_Type_free(&p->type);
    free(p->blocks);
    p->blocks = NULL;
    free(p->held_vals);     /* a held collective never started (coll/held.c) */
    p->held_vals = NULL;
    if (p->pair_s)
        mc_prec_free(p->pair_s);
    if (p->pair_r)
        mc_prec_free(p->pair_r);
    if (nreserve < PREC_POOL)
        reserve[nreserve++] = p;
    else
        free(p);
}

/* Out of the table and off the live list (engine lock held). */
static void unlist(mc_prec *p)
{
    MC_LOCK();
    mc_obj_unlink(&p->obj);
    MC_UNLOCK();
    DL_DELETE2(live, p, live_prev, live_next);
    p->live_prev = p->live_next = NULL;
    nprecs--;
}

void mc_prec_insert(mc_prec *p, MPI_Request user, const mc_call *c)
{
    mc_prec *old = mc_prec_find(user);
    if (old) {
        /* MPI handed out a handle a live request still has: a shared one
         * (Open MPI's for collectives done at once, ...). */
        if (old->active) {
            MC_LOCK();
            mc_requests_shared(MC_BITS(user));
            MC_UNLOCK();
        }
        mc_prec_drop(old);
    }
    p->user = user;
    int persistent = c->desc && (c->desc->flags & MC_FLAG_PERSISTENT);
    MC_LOCK();
    mc_obj_insert(&p->obj, p, MC_OBJ_REQUEST, MC_BITS(user), c, 0);
    p->obj.persistent = persistent;
    p->obj.active = !persistent;
    MC_UNLOCK();
    DL_PREPEND2(live, p, live_prev, live_next);
    nprecs++;
}

void mc_prec_rekey(mc_prec *p, MPI_Request user)
{
    MC_LOCK();
    mc_obj_rekey(&p->obj, MC_BITS(user));
    MC_UNLOCK();
    p->user = user;
}

mc_prec *mc_prec_new(MPI_Request user, const mc_call *c)
{
    mc_prec *p = mc_prec_alloc();
    if (p)
        mc_prec_insert(p, user, c);
    return p;
}

void mc_prec_drop(mc_prec *p)
{
    unlist(p);
    if (p->slot)
        mc_p2p_hook.env_release(p->slot);
    if (p->mirror != MPI_REQUEST_NULL) {
        PMPI_Cancel(&p->mirror);
        PMPI_Request_free(&p->mirror);
    }
    mc_prec_free(p);
}

int mc_prec_count(void) { return nprecs; }
mc_prec *mc_prec_newest(void) { return live; }

/* Records whose user handle is gone (MPI_Request_free while active): the
 * engine still has to see their envelopes through. */
static mc_prec *orphans;
static int norphans;
int mc_eng_orphans_live;

void mc_prec_orphan(mc_prec *p)
{
    unlist(p);
    p->user_freed = 1;
    p->orphan_next = orphans;
    orphans = p;
    norphans++;
    mc_eng_orphans_live = 1;
}

static void own_type(mc_prec *p, MPI_Datatype type)
{
    MPI_Datatype dup;
    if (p->type != type || p->type_owned)
        return;
    /* Without a duplicate the record keeps the freed handle: comparing
     * with it could only be skipped, never trusted (MPICH reuses handles). */
    if (PMPI_Type_dup(type, &dup) == MPI_SUCCESS) {
        p->type = dup;
        p->type_owned = 1;
        p->reg.type = dup;      /* the byte range packs through it too */
    } else {
        p->type = MPI_DATATYPE_NULL;
        p->reg_on = 0;
    }
}

/* A record and the halves of an MPI_Isendrecv it holds (compared at the
 * program's completion, after MPI finished them). */
static void own_type_all(mc_prec *p, MPI_Datatype type)
{
    own_type(p, type);
    if (p->pair_s)
        own_type(p->pair_s, type);
    if (p->pair_r)
        own_type(p->pair_r, type);
}

void mc_eng_type_freeing(MPI_Datatype type)
{
    if (!mc_eng_on || type == MPI_DATATYPE_NULL)
        return;
    mc_eng_lock();
    for (mc_prec *p = live; p; p = p->live_next)
        own_type_all(p, type);
    for (mc_prec *p = orphans; p; p = p->orphan_next)
        own_type_all(p, type);
    mc_eng_unlock();
}

int mc_eng_has_orphans(void) { return orphans != NULL; }

/* The real request of an orphan whose operation is done, which the engine
 * kept for the program (complete.c, mc_complete_free): completed and
 * freed as MPI would have freed it after its completion. */
static void orphan_release_real(mc_prec *p)
{
    if (p->real == MPI_REQUEST_NULL)
        return;
    if (p->persistent) {
        PMPI_Wait(&p->real, MPI_STATUS_IGNORE);
        PMPI_Request_free(&p->real);
    } else {
        PMPI_Wait(&p->real, MPI_STATUS_IGNORE);
    }
    p->real = MPI_REQUEST_NULL;
}

static void drive_orphans(void)
{
    mc_prec **pp = &orphans;
    while (*pp) {
        mc_prec *p = *pp;
        int done = mc_p2p_hook.prec_progress(p);
        if (done && p->real != MPI_REQUEST_NULL && p->user_freed && p->real == p->user)
            orphan_release_real(p);
        if (done && p->bufsum_on && p->real == MPI_REQUEST_NULL)
            mc_bufwatch_end_freed(p);
        if (done && p->real == MPI_REQUEST_NULL && p->mirror == MPI_REQUEST_NULL
            && !p->deferred) {
            *pp = p->orphan_next;
            norphans--;
            if (p->slot)
                mc_p2p_hook.env_release(p->slot);
            mc_prec_free(p);
        } else {
            pp = &p->orphan_next;
        }
    }
    mc_eng_orphans_live = orphans != NULL;
}

/* ---- the wait loop ------------------------------------------------------ */

void mc_eng_before_block(void)
{
    if (!mc_p2p_hook.recv_pending_deferred())
        return;
    mc_eng_lock();
    mc_p2p_hook.recv_drive();
    mc_eng_unlock();
}

static __thread int servicing __attribute__((tls_model("initial-exec")));   /* this thread is inside mc_eng_service (an error handler may run there) */

/* Up to this many: each costs an MPI_Test or two per call. A program that
 * keeps more freed sends in flight has them looked at by the wait loops'
 * service only, as before 2026-11-28 (docs/checks.md, buffer-modified). */
#define ORPHANS_AFTER_CALL 64

void mc_eng_after_call(void)
{
    if (servicing)
        return;     /* an error handler's call inside the service */
    mc_eng_lock();
    if (orphans && norphans <= ORPHANS_AFTER_CALL)
        drive_orphans();
    mc_eng_unlock();
}

void mc_eng_service(void)
{
    servicing++;
    mc_p2p_hook.recv_drive();
    if (orphans)
        drive_orphans();
    mc_p2p_hook.env_reap(0);
    if (mc_sq_active)
        mc_sq_drive();
    if (*mc_coll_hook.npending)
        mc_coll_hook.service();
    servicing--;
}


double mc_eng_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int mc_eng_settle(double seconds)
{
    /* Under MPI_THREAD_MULTIPLE this thread may hold the engine lock
     * where MPI ran the handler; the lock is not recursive. */
    if (!mc_eng_on || servicing || mc_st.thread_level == MPI_THREAD_MULTIPLE)
        return 0;
    for (double end = mc_eng_now() + seconds; *mc_coll_hook.npending && mc_eng_now() < end;) {
        mc_eng_service();
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return *mc_coll_hook.npending == 0;
}

void mc_eng_wait_as(mc_call *c, const uintptr_t *pcs, size_t npcs, mc_ready_fn ready,
                    mc_describe_fn describe, void *ctx)
{
    mc_dl_preset_stack(pcs, npcs);
    mc_eng_wait(c, ready, describe, ctx);
    mc_dl_preset_stack(NULL, 0);
}

void mc_eng_wait(mc_call *c, mc_ready_fn ready, mc_describe_fn describe, void *ctx)
{
    if (ready(ctx))
        return;
    /* Higher ranks start a little later (5 ms per rank, at most 0.3 s):
     * when many ranks hang at once, the lowest one's detection reaches the
     * others first and they leave the work to it. */
    double start = mc_eng_now(),
           next_detect = start + mc_st.cfg.timeout_s + 0.005 * (mc_st.world_rank % 64),
           probe_at = start + MC_DL_EARLY_PROBE_S + 0.001 * (mc_st.world_rank % 16),
           board_at = start + mc_st.cfg.timeout_s;
    unsigned long spins = 0;
    /* The early probe is for strict sends' waits: none while the program
     * runs threads of its own under MPI_THREAD_MULTIPLE (mc_eng_strict_now),
     * where asking every wait what it lacks slowed MPICH's
     * threads/comm/dup_leak_test from 2 s to 80 s and more. */
    int inconclusive = 0, probe = mc_eng_strict_now();
    mc_dl_set_waiting(c, ready, describe, ctx);
    for (;;) {
        mc_eng_service();
        if (ready(ctx))
            break;
        spins++;
        /* Spin briefly (latency), then yield, then sleep: ranks are often
         * oversubscribed, and a spinning waiter would steal its peer's CPU.
         * The detector's queries come only after someone's timeout: they are
         * answered from the slow phase, off the latency path. Under
         * MPI_THREAD_MULTIPLE the spin lets go of the engine lock at every
         * turn: another thread of this rank may be the one that makes the
         * call this wait needs (a listener thread's receive, the main
         * thread's send), and a waiter that kept the lock through its spins
         * made MPICH's threads/pt2pt/alltoall 15 times slower. */
        if (spins <= 64 && mc_st.thread_level == MPI_THREAD_MULTIPLE) {
            mc_eng_unlock();
            sched_yield();
            mc_eng_lock();
        }
        if (spins == 65)
            mc_board_set(c, describe, ctx);  /* for a rank that dies to name who waited (wait_board.c) */
        if (spins > 64) {
            mc_dl_service();
            double t = mc_eng_now();
            if (t - start >= 0.01)
                mc_dl_note_slow();  /* its stack, for another thread's answer */
            if (t >= board_at) {
                /* Again once a timeout: a receive's envelope matched since
                 * makes its data a transfer in progress, whose bytes the
                 * hang watch must know before --hang-timeout (6 timeouts). */
                mc_board_set(c, describe, ctx);
                board_at = t + mc_st.cfg.timeout_s;
            }
            if (probe && t >= probe_at && mc_dl_early_probe(c, describe, ctx, &probe_at, &probe))
                continue;
            if (t >= next_detect && mc_dl_deferred()) {
                next_detect = t + 0.05;     /* a lower rank is detecting */
            } else if (t >= next_detect) {
                mc_eng_unlock();
                int verdict = mc_dl_detect(c, 0);
                mc_eng_lock();
                if (verdict == MC_DL_RELAXED)
                    continue;
                if (++inconclusive >= 2 && mc_dl_only_acks_missing(describe, ctx)) {
                    /* Twice no verdict, and MPI already delivered or buffered
                     * everything this rank waits for: the receiver is busy
                     * where the detector cannot see it (inside a collective,
                     * or computing). Waiting longer could hang a program MPI
                     * runs fine, so strict mode gives up here, without a
                     * report, and this call site stops waiting for good. */
                    mc_dl_relax_here(c);
                    continue;
                }
                next_detect = mc_eng_now() + mc_st.cfg.timeout_s;
            }
            mc_eng_unlock();
            /* Yield, never sleep, while a message may come any moment: a
             * 50 us nap per wait tripled hpcc's run time. Only a wait that
             * already lasted 100 ms (a peer computing, a deadlock) naps, and
             * not while a window exists: other ranks' one-sided operations
             * may progress only when this rank calls into MPI (Open MPI's
             * accumulates do), and a rank napping in MPI_Barrier made
             * MPICH's rma/rma_contig run past its time limit. */
            if (t - start < 0.1 || mc_st.windows > 0) {
                sched_yield();
            } else {
                struct timespec ts = {0, 200000};
                nanosleep(&ts, NULL);
            }
            mc_eng_lock();
        }
    }
    mc_dl_clear_waiting();
    mc_board_clear();
}

/* ---- start and end ------------------------------------------------------ */

void mc_eng_start(void)
{
    /* The sessions model has no MPI_COMM_WORLD to detect deadlocks over. */
    if (mc_st.phase != MC_PHASE_RUNNING && mc_st.world_dup == MPI_COMM_NULL)
        return;
    const char *off = getenv("MPICHECK_HANDSHAKES");
    if (off && strcmp(off, "0") == 0)
        return;
    if (!mc_hooks_complete()) {
        /* A build error (core registers both families first), never the
         * program's: say so and run unchecked rather than crash. */
        fprintf(stderr, "mpicheck: internal error: the handshake families did not register; "
                        "messages and collectives are not checked\n");
        return;
    }
    if (!mc_pcomms_start())
        return;
    reserve_fill();
    mc_eng_strict = mc_st.cfg.mode == MC_MODE_STRICT;
    mc_eng_on = 1;
}

static void cancel_mirror(mc_prec *p)
{
    if (p->mirror == MPI_REQUEST_NULL)
        return;
    MPI_Status st;
    int cancelled = 0;
    PMPI_Cancel(&p->mirror);
    PMPI_Wait(&p->mirror, &st);
    PMPI_Test_cancelled(&st, &cancelled);
    if (!cancelled)
        mc_env_received++;  /* it had taken an envelope: not in flight */
}

static int finalize_ready(void *ctx)
{
    MPI_Request *r = ctx;
    int flag = 0;
    PMPI_Test(r, &flag, MPI_STATUS_IGNORE);
    return flag;
}

static void finalize_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    mc_waitfor_clause(w);
    if (w->nclauses)
        w->clause_len[w->nclauses - 1] = -1;    /* every rank not in MPI_Finalize */
    else
        w->unknown = 1;
}

/* MPI_Finalize: wait (serving the detector) until every rank is here, so a
 * receive from a rank in MPI_Finalize is a proven deadlock; then take in the
 * envelopes nobody received: lost messages. */
void mc_eng_finalize(void)
{
    if (!mc_eng_on)
        return;
    mc_eng_lock();
    mc_coll_hook.finalize();
    mc_call fc = {.fn = MC_FN_MPI_Finalize, .desc = &mc_fn_table[MC_FN_MPI_Finalize]};
    MPI_Request bar = MPI_REQUEST_NULL;
    if (PMPI_Ibarrier(mc_st.world_dup, &bar) == MPI_SUCCESS)
        mc_eng_wait(&fc, finalize_ready, finalize_describe, &bar);
    /* Shadows of communicators never used may still be copying: every
     * member started the same copies, and all are here now. */
    mc_eng_final_waits = 1;
    mc_pcomms_copies_wait();
    /* Collectives a member never called: no one can call them now. */
    mc_coll_hook.unmatched();
    /* Receives never matched: their mirrors must not swallow envelopes. */
    if (orphans)
        drive_orphans();
    for (mc_prec *p = live; p; p = p->live_next)
        cancel_mirror(p);
    for (mc_prec *p = orphans; p; p = p->orphan_next) {
        cancel_mirror(p);
        /* An operation freed by the program and never completed: its
         * request goes back to MPI, freed as the program asked. */
        if (p->real != MPI_REQUEST_NULL && p->real == p->user)
            PMPI_Request_free(&p->real);
    }
    /* Every envelope sent must be received here or by a mirror, and every
     * message of the deadlock detector by someone: agree on the totals,
     * draining until they match (bounded: a message still in flight after
     * a second is given up). */
    for (int round = 0; round < 200; round++) {
        mc_pcomms_drain_lost();
        mc_p2p_hook.env_reap(1);        /* takes in strict mode's notices too */
        long long diff[2] = {mc_env_sent - mc_env_received, mc_dl_final_drain()}, sum[2] = {0, 0};
        if (PMPI_Allreduce(diff, sum, 2, MPI_LONG_LONG, MPI_SUM, mc_st.world_dup) != MPI_SUCCESS
            || (sum[0] <= 0 && sum[1] <= 0))
            break;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    mc_p2p_hook.env_reap(1);
    mc_eng_on = 0;
    mc_typesig_fini();
    mc_eng_unlock();
}
