/*
 * engine.c - the engine's tables (communicators with their shadows, request
 * records), its start and end, and the wait loop every blocking p2p point
 * runs in.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "p2p.h"
#include "wait_board.h"
#include "objects.h"
#include "report.h"
#include "state.h"
#include "typesig.h"
#include "coll.h"

int mc_eng_on;
int mc_eng_strict;

static pthread_mutex_t eng_mutex = PTHREAD_MUTEX_INITIALIZER;
void mc_eng_lock(void) { if (mc_st.thread_level == MPI_THREAD_MULTIPLE) pthread_mutex_lock(&eng_mutex); }
void mc_eng_unlock(void) { if (mc_st.thread_level == MPI_THREAD_MULTIPLE) pthread_mutex_unlock(&eng_mutex); }

/* ---- communicators ------------------------------------------------------ */

static mc_pcomm *pcomms;

static mc_pcomm *pcomm_add(MPI_Comm comm, MPI_Comm shadow)
{
    mc_pcomm *pc = calloc(1, sizeof *pc);
    if (!pc)
        return NULL;
    pc->key = mc_key(MC_KEY_PCOMM, MC_BITS(comm));
    pc->comm = comm;
    pc->shadow = shadow;
    pc->shadow_req = MPI_REQUEST_NULL;
    pc->rank = -1;
    pc->flat = MPI_COMM_NULL;
    HASH_ADD(hh, pcomms, key, sizeof pc->key, pc);
    return pc;
}

static void pcomm_fill(mc_pcomm *pc)
{
    int flag = 0;
    PMPI_Comm_rank(pc->comm, &pc->rank);
    PMPI_Comm_size(pc->comm, &pc->size);
    PMPI_Comm_test_inter(pc->comm, &flag);
    pc->is_inter = flag;
    if (flag)
        PMPI_Comm_remote_size(pc->comm, &pc->remote_size);
}

/* An MPI_Comm_idup's shadow: waits until the copy queued behind earlier
 * copies of the parent's shadow has been started and has ended. Every
 * member started the same copies in the same order, and MPI's progress
 * (driven here) ends them, so this wait ends. */
static void copy_wait(mc_pcomm *pc)
{
    while (pc->shadow_state == MC_SHADOW_QUEUED
           || (pc->shadow_state == MC_SHADOW_COPYING && pc->shadow_req != MPI_REQUEST_NULL)) {
        mc_sq_drive();
        if (pc->shadow_state == MC_SHADOW_COPYING && pc->shadow_req != MPI_REQUEST_NULL) {
            int flag = 0;
            if (PMPI_Test(&pc->shadow_req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                pc->shadow_req = MPI_REQUEST_NULL;
            if (!flag)
                sched_yield();
        }
    }
}

/* At the communicator's first use (the application's request has
 * completed, so its handle may be queried now). */
static void settle(mc_pcomm *pc)
{
    copy_wait(pc);
    if (pc->shadow_state == MC_SHADOW_COPYING) {
        pcomm_fill(pc);
        pc->shadow_state = MC_SHADOW_READY;
        mc_coll_comm_ready(pc);
    }
}

mc_pcomm *mc_pcomm_get(MPI_Comm comm)
{
    mc_obj_key key = mc_key(MC_KEY_PCOMM, MC_BITS(comm));
    mc_pcomm *pc = NULL;
    HASH_FIND(hh, pcomms, &key, sizeof key, pc);
    if (pc && pc->shadow_state != MC_SHADOW_READY) {
        settle(pc);
        if (pc->shadow_state == MC_SHADOW_NONE)
            return NULL;
    }
    return pc;
}

int mc_pcomm_world_rank(mc_pcomm *pc, int r)
{
    if (r < 0)
        return -1;
    if (pc->comm == MPI_COMM_WORLD)
        return r;
    MPI_Group g, wg;
    int out = -1;
    int rc = pc->is_inter ? PMPI_Comm_remote_group(pc->comm, &g) : PMPI_Comm_group(pc->comm, &g);
    if (rc != MPI_SUCCESS)
        return -1;
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    if (PMPI_Group_translate_ranks(g, 1, &r, wg, &out) != MPI_SUCCESS || out == MPI_UNDEFINED)
        out = -1;
    PMPI_Group_free(&g);
    PMPI_Group_free(&wg);
    return out;
}

void mc_pcomm_name(MPI_Comm comm, char *buf, size_t len)
{
    mc_param_desc pd = {.name = "comm", .role = MC_ROLE_COMM, .ctype = MC_CT_COMM};
    mc_value v = {.comm = comm};
    char *s = mc_render_value(&pd, &v);
    snprintf(buf, len, "%s", s ? s : "?");
    free(s);
}

/* Dynamic-process communicators (spawn, connect/accept, join, the parent)
 * get no shadow: making one is collective over processes that may not run
 * the checker, and would hang them. Sessions' communicators neither: the
 * deadlock detector speaks MPI_COMM_WORLD. Traffic on them is not checked. */
static int shadowless(int fn)
{
    switch (fn) {
    case MC_FN_MPI_Comm_spawn: case MC_FN_MPI_Comm_spawn_multiple: case MC_FN_MPI_Comm_accept:
    case MC_FN_MPI_Comm_connect: case MC_FN_MPI_Comm_join: case MC_FN_MPI_Comm_get_parent:
#ifdef MC_FN_MPI_Comm_create_from_group
    case MC_FN_MPI_Comm_create_from_group:
#endif
        return 1;
    default:
        return 0;
    }
}

/* Starts the copy of an MPI_Comm_idup's shadow (now, or from the queue). */
static int start_shadow_copy(void *ctx)
{
    mc_pcomm *pc = ctx;
    int rc = PMPI_Comm_idup(pc->shadow_of, &pc->shadow, &pc->shadow_req);
    if (rc != MPI_SUCCESS) {
        pc->shadow = MPI_COMM_NULL;
        pc->shadow_req = MPI_REQUEST_NULL;
        pc->shadow_state = MC_SHADOW_NONE;
        return rc;
    }
    pc->shadow_state = MC_SHADOW_COPYING;
    mc_sq_copy_started(pc->shadow_of, pc);
    return rc;
}

void mc_eng_comm_created(mc_call *c, MPI_Comm newcomm)
{
    if (!mc_eng_on || newcomm == MPI_COMM_NULL || shadowless(c->fn))
        return;
    MPI_Comm shadow = MPI_COMM_NULL, pshadow = MPI_COMM_NULL;
    /* Never MPI_Comm_dup of the user's communicator: it would run the
     * application's attribute copy callbacks (and their delete callbacks when
     * the shadow is freed). MPI_Comm_split copies no attributes. No lock is
     * held here: this is a collective call. */
    int idup = c->fn == MC_FN_MPI_Comm_idup || c->fn == MC_FN_MPI_Comm_idup_with_info;
    int topo = MPI_UNDEFINED, inter = 0;
    if (!idup) {
        PMPI_Topo_test(newcomm, &topo);
        PMPI_Comm_test_inter(newcomm, &inter);
    }
    /* The shadow of a new intracommunicator is a nonblocking copy of it
     * (MPI_Comm_idup), waited for at the communicator's first use
     * (mc_pcomm_get), not a blocking MPI_Comm_split: Open MPI 4.1 lets a
     * context-id agreement go ahead only when no pending one has a lower
     * parent id, so a split of the new communicator would wait for an
     * MPI_Comm_idup of MPI_COMM_WORLD that the application started, and
     * that waits for members that call MPI_Comm_idup only after this call
     * (MPICH's comm/comm_create_group_idup hung). Every member decides
     * alike, from the call and the communicator. Not for communicators that
     * may carry attributes already (MPI_Comm_dup's: the copy would run
     * their copy callbacks) or a topology (the neighbor twin is made from
     * the shadow at once), nor intercommunicators (their merge for the
     * handshakes is made at once). */
    int copy_new = !idup && !inter && topo == MPI_UNDEFINED
                   && c->fn != MC_FN_MPI_Comm_dup && c->fn != MC_FN_MPI_Comm_dup_with_info;
    if (copy_new) {
        pshadow = newcomm;
    } else if (idup) {
        /* The new handle may not be used before the user's request
         * completes, so the shadow copies the parent's shadow (same group,
         * no attributes), without blocking. */
        mc_eng_lock();
        mc_pcomm *parent = mc_pcomm_get(c->vals[0].comm);
        pshadow = parent ? parent->shadow : MPI_COMM_NULL;
        mc_eng_unlock();
        if (pshadow == MPI_COMM_NULL)
            return;
    } else {
        int r = 0;
        PMPI_Comm_rank(newcomm, &r);
        if (PMPI_Comm_split(newcomm, 0, r, &shadow) != MPI_SUCCESS)
            return;
    }
    mc_eng_lock();
    mc_obj_key key = mc_key(MC_KEY_PCOMM, MC_BITS(newcomm));
    mc_pcomm *old = NULL;
    HASH_FIND(hh, pcomms, &key, sizeof key, old);
    if (old) {
        /* A handle value reused after a free the engine did not see. The old
         * record leaves the table but is not freed: held-back receives may
         * still point at it. */
        HASH_DEL(pcomms, old);
    }
    mc_pcomm *pc = pcomm_add(newcomm, shadow);
    if (!pc && shadow != MPI_COMM_NULL)
        PMPI_Comm_free(&shadow);
    if (pc && !idup)
        pcomm_fill(pc);
    if (pc && (idup || copy_new)) {
        int flag = 0, rc;   /* an idup'ed intercommunicator gets no handshakes */
        if (idup) {
            PMPI_Comm_test_inter(c->vals[0].comm, &flag);
            pc->is_inter = flag;
        }
        pc->shadow_state = MC_SHADOW_QUEUED;
        pc->shadow_of = pshadow;
        mc_sq_submit(pshadow, start_shadow_copy, pc, &rc);
    }
    mc_eng_unlock();
    /* Collective over the new communicator's members, who are all here. */
    if (pc)
        mc_coll_comm_created(c, pc);
}

static void drain_lost(mc_pcomm *pc);
void mc_recv_comm_freeing(mc_pcomm *pc);

/* Before the application's MPI_Comm_free / MPI_Comm_disconnect. Handshakes
 * of nonblocking collectives still running on the communicator are not
 * waited for: their reductions run on the shadow, which MPI lets finish
 * after it is freed (MPI-3.1 sec. 6.4.3), and waiting here could wait for a
 * member that is in a collective on another communicator. */
void mc_eng_comm_freeing(MPI_Comm comm)
{
    if (!mc_eng_on)
        return;
    mc_eng_lock();
    mc_obj_key key = mc_key(MC_KEY_PCOMM, MC_BITS(comm));
    mc_pcomm *pc = NULL;
    HASH_FIND(hh, pcomms, &key, sizeof key, pc);
    /* A copy of the communicator still running must end before MPI frees
     * it (Open MPI's context-id agreement still reads the parent). */
    if (pc)
        copy_wait(pc);
    if (pc && pc->dq_head)
        mc_recv_comm_freeing(pc);
    mc_eng_unlock();
}

void mc_eng_comm_freed(MPI_Comm comm)
{
    if (!mc_eng_on)
        return;
    mc_eng_lock();
    mc_obj_key key = mc_key(MC_KEY_PCOMM, MC_BITS(comm));
    mc_pcomm *pc = NULL;
    HASH_FIND(hh, pcomms, &key, sizeof key, pc);
    if (pc) {
        copy_wait(pc);      /* normally done before the free already */
        mc_sq_forget(pc);
        mc_recv_comm_freeing(pc);   /* normally done before the free already */
        drain_lost(pc);
        mc_coll_comm_freed(pc);
        HASH_DEL(pcomms, pc);
        mc_coll_release_comm(&pc->shadow);
        free(pc);
    }
    mc_eng_unlock();
}

/* ---- requests ----------------------------------------------------------- */

static mc_prec *precs;
static int nprecs;

mc_prec *mc_prec_find(MPI_Request user)
{
    if (!precs)
        return NULL;
    mc_obj_key key = mc_key(MC_KEY_PREC, MC_BITS(user));
    mc_prec *p = NULL;
    HASH_FIND(hh, precs, &key, sizeof key, p);
    return p;
}

mc_prec *mc_prec_alloc(void)
{
    mc_prec *p = calloc(1, sizeof *p);
    if (p)
        p->real = p->mirror = p->user = MPI_REQUEST_NULL;
    return p;
}

void mc_prec_insert(mc_prec *p, MPI_Request user)
{
    p->user = user;
    p->key = mc_key(MC_KEY_PREC, MC_BITS(user));
    mc_prec *old = mc_prec_find(user);
    if (old)
        mc_prec_drop(old);
    HASH_ADD(hh, precs, key, sizeof p->key, p);
    nprecs++;
}

mc_prec *mc_prec_new(MPI_Request user)
{
    mc_prec *p = mc_prec_alloc();
    if (p)
        mc_prec_insert(p, user);
    return p;
}

void mc_prec_rekey(mc_prec *p, MPI_Request user)
{
    HASH_DEL(precs, p);
    p->user = user;
    p->key = mc_key(MC_KEY_PREC, MC_BITS(user));
    mc_prec *old = mc_prec_find(user);
    if (old)
        mc_prec_drop(old);
    HASH_ADD(hh, precs, key, sizeof p->key, p);
}

static void prec_free(mc_prec *p)
{
    if (p->type_owned)
        PMPI_Type_free(&p->type);
    free(p);
}

void mc_prec_drop(mc_prec *p)
{
    HASH_DEL(precs, p);
    nprecs--;
    if (p->slot)
        mc_env_release(p->slot);
    if (p->mirror != MPI_REQUEST_NULL) {
        PMPI_Cancel(&p->mirror);
        PMPI_Request_free(&p->mirror);
    }
    prec_free(p);
}

int mc_prec_count(void) { return nprecs; }

/* Records whose user handle is gone (MPI_Request_free while active): the
 * engine still has to see their envelopes through. */
static mc_prec *orphans;

void mc_prec_orphan(mc_prec *p);
void mc_prec_orphan(mc_prec *p)
{
    HASH_DEL(precs, p);
    nprecs--;
    p->user_freed = 1;
    p->orphan_next = orphans;
    orphans = p;
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
    } else {
        p->type = MPI_DATATYPE_NULL;
    }
}

void mc_eng_type_freeing(MPI_Datatype type)
{
    if (!mc_eng_on || type == MPI_DATATYPE_NULL)
        return;
    mc_eng_lock();
    for (mc_prec *p = precs; p; p = p->hh.next)
        own_type(p, type);
    for (mc_prec *p = orphans; p; p = p->orphan_next)
        own_type(p, type);
    mc_eng_unlock();
}

int mc_eng_has_orphans(void);
int mc_eng_has_orphans(void) { return orphans != NULL; }

static void drive_orphans(void)
{
    mc_prec **pp = &orphans;
    while (*pp) {
        mc_prec *p = *pp;
        if (mc_prec_progress(p) && p->real == MPI_REQUEST_NULL && p->mirror == MPI_REQUEST_NULL
            && !p->deferred) {
            *pp = p->orphan_next;
            if (p->slot)
                mc_env_release(p->slot);
            prec_free(p);
        } else {
            pp = &p->orphan_next;
        }
    }
}

/* ---- the wait loop ------------------------------------------------------ */

int mc_recv_pending_deferred(void);
void mc_eng_before_block(void);
void mc_eng_before_block(void)
{
    if (!mc_recv_pending_deferred())
        return;
    mc_eng_lock();
    mc_recv_drive();
    mc_eng_unlock();
}

void mc_eng_service(void)
{
    mc_recv_drive();
    if (orphans)
        drive_orphans();
    mc_env_reap(0);
    if (mc_sq_active)
        mc_sq_drive();
    if (mc_coll_npending)
        mc_coll_service();
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Whether this wait lacks only strict-mode acknowledgments. */
static int only_acks_missing(mc_describe_fn describe, void *ctx)
{
    mc_waitfor w;
    memset(&w, 0, sizeof w);
    describe(ctx, &w, 1);
    int only = w.npending > 0 && w.npending == w.nrelax;
    mc_waitfor_free(&w);
    return only;
}

int mc_dl_deferred(void);

/* A wait that outlasts its first spins goes on this rank's wait board
 * (wait_board.c), for a rank that dies to name who waited for it. */
static void board_wait(mc_call *c, mc_describe_fn describe, void *ctx)
{
    if (!mc_board_active())
        return;
    mc_waitfor w;
    memset(&w, 0, sizeof w);
    describe(ctx, &w, 1);
    int all = 0;
    for (int i = 0; i < w.nclauses; i++)
        if (w.clause_len[i] < 0)
            all = 1;
    mc_board_set(c ? c->fn : -1, c ? c->caller : NULL, w.ranks, w.nranks, all);
    mc_waitfor_free(&w);
}

void mc_eng_wait(mc_call *c, mc_ready_fn ready, mc_describe_fn describe, void *ctx)
{
    if (ready(ctx))
        return;
    /* Higher ranks start a little later (5 ms per rank, at most 0.3 s):
     * when many ranks hang at once, the lowest one's detection reaches the
     * others first and they leave the work to it. */
    double start = now_s(),
           next_detect = start + mc_st.cfg.timeout_s + 0.005 * (mc_st.world_rank % 64);
    unsigned long spins = 0;
    int inconclusive = 0;
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
            board_wait(c, describe, ctx);
        if (spins > 64) {
            mc_dl_service();
            double t = now_s();
            if (t >= next_detect && mc_dl_deferred()) {
                next_detect = t + 0.05;     /* a lower rank is detecting */
            } else if (t >= next_detect) {
                mc_eng_unlock();
                int released = mc_dl_detect(c, describe, ctx);
                mc_eng_lock();
                if (released)
                    continue;
                if (++inconclusive >= 2 && only_acks_missing(describe, ctx)) {
                    /* Twice no verdict, and MPI already delivered or buffered
                     * everything this rank waits for: the receiver is busy
                     * where the detector cannot see it (inside a collective,
                     * or computing). Waiting longer could hang a program MPI
                     * runs fine, so strict mode gives up here, without a
                     * report, and this call site stops waiting for good. */
                    mc_dl_relax_here(c);
                    continue;
                }
                next_detect = now_s() + mc_st.cfg.timeout_s;
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

/* ---- wait-for descriptions ---------------------------------------------- */

static void wf_push(mc_waitfor *w, int v)
{
    if (w->nranks == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        int *r = realloc(w->ranks, (size_t)cap * sizeof *r);
        if (!r)
            return;
        w->ranks = r;
        w->cap = cap;
    }
    w->ranks[w->nranks++] = v;
}

void mc_waitfor_clause(mc_waitfor *w)
{
    mc_waitfor_clause_key(w, 0);
}

void mc_waitfor_clause_key(mc_waitfor *w, uint64_t key)
{
    int *l = realloc(w->clause_len, (size_t)(w->nclauses + 1) * sizeof *l);
    if (!l)
        return;
    w->clause_len = l;
    uint64_t *k = realloc(w->clause_key, (size_t)(w->nclauses + 1) * sizeof *k);
    if (!k)
        return;
    w->clause_key = k;
    w->clause_key[w->nclauses] = key;
    w->clause_len[w->nclauses++] = 0;
}

void mc_waitfor_add(mc_waitfor *w, int world_rank)
{
    if (!w->nclauses)
        mc_waitfor_clause(w);
    if (world_rank < 0) {
        w->unknown = 1;
        return;
    }
    wf_push(w, world_rank);
    w->clause_len[w->nclauses - 1]++;
}

void mc_waitfor_add_comm(mc_waitfor *w, mc_pcomm *pc, int rank)
{
    if (rank != MPI_ANY_SOURCE) {
        mc_waitfor_add(w, mc_pcomm_world_rank(pc, rank));
        return;
    }
    int n = pc->is_inter ? pc->remote_size : pc->size;
    for (int r = 0; r < n; r++)
        mc_waitfor_add(w, mc_pcomm_world_rank(pc, r));
}

void mc_waitfor_free(mc_waitfor *w)
{
    free(w->clause_len);
    free(w->clause_key);
    free(w->ranks);
    memset(w, 0, sizeof *w);
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
    MPI_Comm ws, ss;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &ws) != MPI_SUCCESS || PMPI_Comm_dup(MPI_COMM_SELF, &ss) != MPI_SUCCESS)
        return;
    mc_pcomm *w = pcomm_add(MPI_COMM_WORLD, ws);
    mc_pcomm *s = pcomm_add(MPI_COMM_SELF, ss);
    if (!w || !s)
        return;
    pcomm_fill(w);
    pcomm_fill(s);
    mc_coll_comm_predefined(w, 0);
    mc_coll_comm_predefined(s, 1);
    mc_eng_strict = mc_st.cfg.mode == MC_MODE_STRICT;
    mc_eng_on = 1;
}

/* Reports the envelopes waiting on pc's shadow: sends no receive matched. */
void mc_lost_report(mc_pcomm *pc, const mc_env *e, int source, long repeats);

static void drain_lost(mc_pcomm *pc)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        if (PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, pc->shadow, &flag, &st) != MPI_SUCCESS || !flag)
            return;
        mc_env e;
        memset(&e, 0, sizeof e);
        PMPI_Recv(&e, (int)sizeof e, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, pc->shadow, MPI_STATUS_IGNORE);
        mc_env_received++;
        if (e.magic == MC_ENV_MAGIC)
            mc_lost_report(pc, &e, st.MPI_SOURCE, 0);
    }
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
    w->clause_len[w->nclauses - 1] = -1;    /* every rank not in MPI_Finalize */
}

/* MPI_Finalize: wait (serving the detector) until every rank is here, so a
 * receive from a rank in MPI_Finalize is a proven deadlock; then take in the
 * envelopes nobody received: lost messages. */
void mc_eng_finalize(void)
{
    if (!mc_eng_on)
        return;
    mc_eng_lock();
    mc_coll_finalize();
    mc_call fc = {.fn = MC_FN_MPI_Finalize, .desc = &mc_fn_table[MC_FN_MPI_Finalize]};
    MPI_Request bar = MPI_REQUEST_NULL;
    if (PMPI_Ibarrier(mc_st.world_dup, &bar) == MPI_SUCCESS)
        mc_eng_wait(&fc, finalize_ready, finalize_describe, &bar);
    /* Shadows of communicators never used may still be copying: every
     * member started the same copies, and all are here now. */
    for (mc_pcomm *pc = pcomms; pc; pc = pc->hh.next)
        copy_wait(pc);
    /* Receives never matched: their mirrors must not swallow envelopes. */
    if (orphans)
        drive_orphans();
    for (mc_prec *p = precs; p; p = p->hh.next)
        cancel_mirror(p);
    for (mc_prec *p = orphans; p; p = p->orphan_next)
        cancel_mirror(p);
    /* Every envelope sent must be received here or by a mirror: agree on
     * the totals, draining until they match (bounded: an envelope of a
     * message still in flight after a second is given up). */
    for (int round = 0; round < 200; round++) {
        for (mc_pcomm *pc = pcomms; pc; pc = pc->hh.next)
            if (pc->shadow_state == MC_SHADOW_READY)
                drain_lost(pc);
        long long diff[1] = {mc_env_sent - mc_env_received}, sum[1] = {0};
        if (PMPI_Allreduce(diff, sum, 1, MPI_LONG_LONG, MPI_SUM, mc_st.world_dup) != MPI_SUCCESS || sum[0] <= 0)
            break;
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    mc_env_reap(1);
    mc_eng_on = 0;
    mc_typesig_fini();
    mc_eng_unlock();
}
