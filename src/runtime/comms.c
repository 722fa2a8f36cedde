/*
 * comms.c - the engine's communicators: the table of records keyed by the
 * application's handle, each with its shadow (how it is made and when it is
 * ready: docs/design.md, "Shadows"), and their end.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <utlist.h>
#include "runtime_internal.h"
#include "objects.h"
#include "report.h"
#include "state.h"
#include "skipped.h"

/* Reports the envelopes waiting on pc's shadow: sends no receive matched. */

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
            mc_p2p_hook.lost_report(pc, &e, st.MPI_SOURCE, 0);
    }
}


/* Every record, for the walks over all of them. A record is found by its
 * communicator through the one object table: tracking's entry of the
 * communicator points at it (ext). Engine lock. */
static mc_pcomm *pcomms;

/* The record of comm, as it is (no wait for a shadow being copied). */
static mc_pcomm *find(MPI_Comm comm)
{
    MC_LOCK();
    mc_obj *o = mc_comm_find(comm);
    mc_pcomm *pc = o ? o->ext : NULL;
    MC_UNLOCK();
    return pc;
}

/* The record of comm, hung on its entry in the object table (which
 * tracking made when the program's call returned, or at MPI_Init for the
 * predefined ones); NULL without an entry: the communicator goes unchecked. */
/* Records kept back for when the checker's memory runs out: a member
 * without a record would not take part in the collective copy of the
 * shadow that the others wait in. Refilled from records freed later. */
#define PCOMM_RESERVE 4
static mc_pcomm *reserve[PCOMM_RESERVE];
static int nreserve;

static void pcomm_release(mc_pcomm *pc)
{
    if (nreserve < PCOMM_RESERVE)
        reserve[nreserve++] = pc;
    else
        free(pc);
}

static mc_pcomm *pcomm_add(MPI_Comm comm, MPI_Comm shadow)
{
    mc_pcomm *pc = mc_calloc(1, sizeof *pc);
    if (!pc && nreserve > 0) {
        pc = reserve[--nreserve];
        memset(pc, 0, sizeof *pc);
    } else if (pc && nreserve < PCOMM_RESERVE) {
        mc_pcomm *spare = mc_malloc(sizeof *spare);     /* memory is back: refill */
        if (spare)
            reserve[nreserve++] = spare;
    }
    if (!pc)
        return NULL;
    pc->comm = comm;
    pc->shadow = shadow;
    pc->shadow_req = MPI_REQUEST_NULL;
    pc->rank = -1;
    pc->flat = pc->flat_of = pc->flat_next = MPI_COMM_NULL;
    pc->flat_req = MPI_REQUEST_NULL;
    pc->hs_twin = MPI_COMM_NULL;
    pc->hs_twin_req = MPI_REQUEST_NULL;
    MC_LOCK();
    mc_obj *o = mc_comm_find(comm);
    if (o)
        o->ext = pc;
    MC_UNLOCK();
    if (!o) {
        pcomm_release(pc);
        return NULL;
    }
    DL_PREPEND2(pcomms, pc, all_prev, all_next);
    return pc;
}

/* Off the table's entry (if it still points here: a new communicator may
 * have its handle by now) and off the list; the caller frees it. */
static void pcomm_remove(mc_pcomm *pc)
{
    MC_LOCK();
    mc_obj *o = mc_comm_find(pc->comm);
    if (o && o->ext == pc)
        o->ext = NULL;
    MC_UNLOCK();
    DL_DELETE2(pcomms, pc, all_prev, all_next);
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

static int copying(const mc_pcomm *pc)
{
    return pc->shadow_state == MC_SHADOW_QUEUED
           || (pc->shadow_state == MC_SHADOW_COPYING && pc->shadow_req != MPI_REQUEST_NULL);
}

/* A copied shadow (an idup's, a dup's, a new communicator's): waits until
 * the copy queued behind earlier copies of the same communicator has been
 * started and has ended, or for at most limit seconds (0: no limit; the
 * copy is then left to end later). Every member started the same copies in
 * the same order, and MPI's progress (driven here) ends them, so this wait
 * ends. Called with the engine lock held; under MPI_THREAD_MULTIPLE it
 * lets go of it while it yields: the collective the copy waits behind may
 * be another thread's handshake, which needs the lock to end (MPICH's
 * threads/comm/dup_leak_test hung). */
static void copy_wait_for(mc_pcomm *pc, double limit)
{
    double deadline = limit > 0 ? mc_eng_now() + limit : 0;
    while (copying(pc)) {
        if (deadline > 0 && mc_eng_now() > deadline)
            return;
        mc_sq_drive();
        int flag = 1;
        if (pc->shadow_state == MC_SHADOW_COPYING && pc->shadow_req != MPI_REQUEST_NULL) {
            if (PMPI_Test(&pc->shadow_req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                pc->shadow_req = MPI_REQUEST_NULL;
                flag = 1;
            }
        } else if (pc->shadow_state == MC_SHADOW_QUEUED) {
            flag = 0;
        }
        if (!flag) {
            mc_eng_unlock();
            sched_yield();
            mc_eng_lock();
        }
    }
}

static void copy_wait(mc_pcomm *pc)
{
    copy_wait_for(pc, 0);
}

/* At the communicator's first use (the application's request has
 * completed, so its handle may be queried now). */
static void settle(mc_pcomm *pc)
{
    copy_wait(pc);
    if (pc->shadow_state == MC_SHADOW_COPYING) {
        pcomm_fill(pc);
        pc->shadow_state = MC_SHADOW_READY;
        mc_coll_hook.comm_ready(pc);
    }
}

mc_pcomm *mc_pcomm_get(MPI_Comm comm)
{
    mc_pcomm *pc = find(comm);
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
    /* A message left on a communicator the program freed is reported after
     * MPI freed it (drain_lost): its handle is no communicator any more. */
    MPI_Comm comm = pc->comm_gone && pc->shadow != MPI_COMM_NULL ? pc->shadow : pc->comm;
    int rc = pc->is_inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g);
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
 * get no shadow unless every process of both groups is known to run the
 * checker (c->dynamic_checked: children the checker started, inter/spawn.c):
 * making one is collective over processes that may not run the checker,
 * and would hang them. Traffic on the others is not checked. */
/* The MPI library this checker was built against is MPICH (or a library
 * derived from it): its mpi.h says so. */
static int built_for_mpich(void)
{
#if defined(MPICH_VERSION) && !defined(OPEN_MPI)
    return 1;
#else
    return 0;
#endif
}

static int shadowless(int fn)
{
    switch (fn) {
    case MC_FN_MPI_Comm_spawn: case MC_FN_MPI_Comm_spawn_multiple: case MC_FN_MPI_Comm_accept:
    case MC_FN_MPI_Comm_connect: case MC_FN_MPI_Comm_join: case MC_FN_MPI_Comm_get_parent:
        return 1;
    default:
        return 0;
    }
}

/* Whether this process has a communicator with processes of another
 * MPI_COMM_WORLD (spawned, or its parents): only then can a new one span
 * worlds, and only then is that worth asking. */
static int worlds_joined;

/* Whether some process of comm (or of its remote group) is not in this
 * MPI_COMM_WORLD. */
static int spans_other_world(MPI_Comm comm, int inter)
{
    int spans = 0;
    for (int remote = 0; remote <= inter && !spans; remote++) {
        MPI_Group g, wg;
        if ((remote ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) != MPI_SUCCESS)
            return 1;
        int n = 0;
        PMPI_Group_size(g, &n);
        int *in = mc_malloc((size_t)(n > 0 ? n : 1) * sizeof *in), *out = mc_malloc((size_t)(n > 0 ? n : 1) * sizeof *out);
        PMPI_Comm_group(MPI_COMM_WORLD, &wg);
        if (!in || !out) {
            spans = 1;      /* unknown: disconnecting is what keeps the jobs apart */
        } else {
            for (int i = 0; i < n; i++)
                in[i] = i;
            if (PMPI_Group_translate_ranks(g, n, in, wg, out) != MPI_SUCCESS)
                spans = 1;
            for (int i = 0; i < n && !spans; i++)
                spans = out[i] == MPI_UNDEFINED;
        }
        free(in);
        free(out);
        PMPI_Group_free(&g);
        PMPI_Group_free(&wg);
    }
    return spans;
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

/* MPI_Comm_create_group under MPI_THREAD_MULTIPLE with Open MPI: no
 * shadow. It is the one call by which threads may create communicators
 * from one parent at once (told apart by their tags, MPI-4.0 sec. 7.4.2),
 * so some processes can have agreements pending on the parent that others
 * join only later, and Open MPI 4.1 lets a context-id agreement go ahead
 * only when none with a lower parent id is pending in the process: the
 * shadow's copy, waited for at the new communicator's first use, waited
 * behind them while the threads that would join them waited for shadows
 * of their own (threads/comm/comm_create_group_threads2 hung in 5 of 6
 * runs; `deadlock_ok_create_group_threads.c`). Any shadow is one more
 * agreement, so the communicator goes unchecked, counted as skipped. The
 * call, the thread level and the MPI are the same on every member, so
 * every member decides alike. */
static int group_created_among_threads(const mc_call *c)
{
    return c->fn == MC_FN_MPI_Comm_create_group && mc_st.thread_level == MPI_THREAD_MULTIPLE
           && !built_for_mpich();
}

/* MPI_Comm_dup under MPI_THREAD_MULTIPLE with MPICH: the shadow's copy is
 * waited for in the dup, while every member has just ended the same
 * agreement, instead of at the communicator's first use or its free. MPICH
 * lets one pending context-id agreement of a process at a time (the one of
 * the lowest parent id) take its whole mask; a copy left pending while the
 * threads went on to their next agreements made each wait behind the
 * others': threads/comm/dup_leak_test (4 threads duplicating and freeing
 * in a loop, -iter=1234) took 1.5 to 17.7 s checked against 0.3 to 0.5 s
 * plainly, and 0.4 to 1.8 s with the wait here. The wait is bounded: a
 * copy that waits behind an agreement of this thread's own still pending
 * (an MPI_Comm_idup the other members join only after this call) is left
 * to end later, as without the wait. */
#define DUP_COPY_WAIT_S 0.2

void mc_eng_comm_created(mc_call *c, MPI_Comm newcomm)
{
    if (!mc_eng_on || newcomm == MPI_COMM_NULL)
        return;
    if (shadowless(c->fn) && !c->dynamic_checked) {
        /* MPI_Comm_get_parent hands out the same communicator every time. */
        static MPI_Comm counted_parent = MPI_COMM_NULL;
        if (c->fn != MC_FN_MPI_Comm_get_parent || newcomm != counted_parent)
            mc_skipped(MC_SKIP_UNCHECKED_COMM);
        if (c->fn == MC_FN_MPI_Comm_get_parent)
            counted_parent = newcomm;
        return;
    }
    if (c->new_comm_unsafe || group_created_among_threads(c)) {
        /* Only some processes got it, or MPI cannot run a collective on it
         * (src/inter/): the shadow is made collectively over it and would
         * wait forever. */
        mc_skipped(MC_SKIP_UNCHECKED_COMM);
        return;
    }
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
    int dup = c->fn == MC_FN_MPI_Comm_dup || c->fn == MC_FN_MPI_Comm_dup_with_info;
    /* Except for a communicator of one process under MPI_THREAD_MULTIPLE
     * with MPICH, whose MPI_Comm_idup of such a communicator is not safe
     * while other threads allocate context ids (pmodels/mpich#2069,
     * #2020): in threads/comm/comm_create_group_threads, whose threads
     * duplicate MPI_COMM_SELF while others create communicators, two ranks
     * grew by 50 MB a second inside the checker's idup of MPI_COMM_SELF's
     * shadow until the kernel killed them. That shadow is the blocking
     * split below (no other process takes part, so it waits for no one).
     * Every communicator of more processes keeps the nonblocking copy:
     * blocking ones made MPICH's threads/comm/dup_leak_test and
     * comm_create_threads run past their time limits (its context-id
     * allocations contend across threads, pmodels/mpich#4602). The size is
     * the same on every member, so every member takes the same path. */
    int nprocs = 0;
    if (!idup)
        PMPI_Comm_size(newcomm, &nprocs);
    int nonblocking_ok = !(mc_st.thread_level == MPI_THREAD_MULTIPLE && built_for_mpich() && nprocs == 1);
    int copy_new = nonblocking_ok && !idup && !dup && !inter && topo == MPI_UNDEFINED;
    /* MPI_Comm_dup of an intracommunicator without a topology: its shadow
     * is a nonblocking copy of the parent's shadow (same group, in the same
     * order; no attributes), like an idup's. A blocking split of the new
     * communicator was one more blocking context-id agreement per dup, and
     * MPICH serializes those across threads: threads/comm/dup_leak_test (4
     * threads each duplicating and freeing in a loop) ran about 200 times
     * longer. */
    int copy_parent = idup || (nonblocking_ok && dup && !inter && topo == MPI_UNDEFINED);
    if (copy_new) {
        pshadow = newcomm;
    } else if (copy_parent) {
        /* The new handle may not be used before the user's request
         * completes, so the shadow copies the parent's shadow (same group,
         * no attributes), without blocking. */
        mc_eng_lock();
        mc_pcomm *parent = mc_pcomm_get(c->vals[0].comm);
        pshadow = parent ? parent->shadow : MPI_COMM_NULL;
        mc_eng_unlock();
        if (pshadow == MPI_COMM_NULL) {
            mc_skipped(MC_SKIP_UNCHECKED_COMM);     /* a copy of an unchecked one */
            return;
        }
    } else {
        int r = 0;
        PMPI_Comm_rank(newcomm, &r);
        if (PMPI_Comm_split(newcomm, 0, r, &shadow) != MPI_SUCCESS) {
            mc_skipped(MC_SKIP_UNCHECKED_COMM);
            return;
        }
    }
    mc_eng_lock();
    /* An entry whose record is still set is a handle value reused after a
     * free the engine did not see, or one another thread is freeing now
     * (its mc_eng_comm_freed frees that record). The new record takes the
     * entry; the old one is not freed here: held-back receives may still
     * point at it. */
    mc_pcomm *pc = pcomm_add(newcomm, shadow);
    if (!pc && shadow != MPI_COMM_NULL)
        PMPI_Comm_free(&shadow);
    if (!pc)
        mc_skipped(MC_SKIP_UNCHECKED_COMM);
    if (pc && !idup)
        pcomm_fill(pc);
    if (c->dynamic_checked)
        worlds_joined = 1;
    if (pc && worlds_joined) {
        if (c->dynamic_checked) {
            pc->spans_worlds = 1;
        } else if (copy_parent) {
            mc_pcomm *parent = find(c->vals[0].comm);
            pc->spans_worlds = parent ? parent->spans_worlds : 1;
        } else {
            pc->spans_worlds = spans_other_world(newcomm, pc->is_inter);
        }
    }
    if (pc && (copy_parent || copy_new)) {
        int flag = 0, rc;   /* an idup'ed intercommunicator gets no handshakes */
        if (idup) {
            PMPI_Comm_test_inter(c->vals[0].comm, &flag);
            pc->is_inter = flag;
        }
        pc->shadow_state = MC_SHADOW_QUEUED;
        pc->shadow_of = pshadow;
        mc_sq_submit(pshadow, start_shadow_copy, pc, &rc);
        if (dup && mc_st.thread_level == MPI_THREAD_MULTIPLE && built_for_mpich())
            copy_wait_for(pc, DUP_COPY_WAIT_S);
    }
    mc_eng_unlock();
    /* Collective over the new communicator's members, who are all here. */
    if (pc)
        mc_coll_hook.comm_created(c, pc);
}


/* Before the application's MPI_Comm_free / MPI_Comm_disconnect. Handshakes
 * of nonblocking collectives still running on the communicator are not
 * waited for: their reductions run on the shadow, which MPI lets finish
 * after it is freed (MPI-3.1 sec. 6.4.3), and waiting here could wait for a
 * member that is in a collective on another communicator. */
/* The record this thread's MPI_Comm_free / MPI_Comm_disconnect is
 * freeing: once MPI has freed the handle, another thread may get the same
 * handle value for a new communicator and register it before this thread's
 * mc_eng_comm_freed runs (seen with MPICH under MPI_THREAD_MULTIPLE: the
 * new record was drained and freed in its place, and MPI aborted on the
 * checker's MPI_Iprobe of a null shadow). */
static __thread mc_pcomm *freeing_now;

void mc_eng_comm_freeing(MPI_Comm comm, int disconnect)
{
    if (!mc_eng_on)
        return;
    mc_eng_lock();
    mc_pcomm *pc = find(comm);
    freeing_now = pc;
    if (pc)
        pc->disconnecting = disconnect;
    /* A copy of the communicator still running must end before MPI frees
     * it (Open MPI's context-id agreement still reads the parent). */
    if (pc)
        copy_wait(pc);
    if (pc && pc->dq_head)
        mc_p2p_hook.recv_comm_freeing(pc);
    mc_eng_unlock();
}

void mc_eng_comm_freed(MPI_Comm comm)
{
    if (!mc_eng_on)
        return;
    mc_eng_lock();
    mc_pcomm *pc = freeing_now && freeing_now->comm == comm ? freeing_now : find(comm);
    freeing_now = NULL;
    if (pc) {
        pc->comm_gone = 1;
        copy_wait(pc);      /* normally done before the free already */
        mc_sq_forget(pc);
        mc_p2p_hook.recv_comm_freeing(pc);   /* normally done before the free already */
        if (pc->shadow != MPI_COMM_NULL)
            drain_lost(pc);
        mc_coll_hook.comm_freed(pc);
        pcomm_remove(pc);
        /* Collective like the program's: every process of both groups
         * disconnects it now, and MPI lets pending traffic end first. */
        if (pc->spans_worlds && pc->disconnecting && pc->shadow != MPI_COMM_NULL)
            PMPI_Comm_disconnect(&pc->shadow);
        else
            mc_coll_hook.release_comm(&pc->shadow);
        pcomm_release(pc);
    }
    mc_eng_unlock();
}

/* MPI_Init: MPI_COMM_WORLD and MPI_COMM_SELF with their shadows. */
int mc_pcomms_start(void)
{
    while (nreserve < PCOMM_RESERVE) {
        mc_pcomm *pc = mc_malloc(sizeof *pc);
        if (!pc)
            break;
        reserve[nreserve++] = pc;
    }
    MPI_Comm ws, ss;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &ws) != MPI_SUCCESS || PMPI_Comm_dup(MPI_COMM_SELF, &ss) != MPI_SUCCESS)
        return 0;
    mc_pcomm *w = pcomm_add(MPI_COMM_WORLD, ws);
    mc_pcomm *s = pcomm_add(MPI_COMM_SELF, ss);
    if (!w || !s)
        return 0;
    pcomm_fill(w);
    pcomm_fill(s);
    mc_coll_hook.comm_predefined(w, 0);
    mc_coll_hook.comm_predefined(s, 1);
    return 1;
}

/* MPI_Finalize, every rank there: shadows of communicators never used may
 * still be copying; every member started the same copies. */
void mc_pcomms_copies_wait(void)
{
    for (mc_pcomm *pc = pcomms; pc; pc = pc->all_next) {
        copy_wait(pc);
        if (pc->flat_copy != MC_FLAT_NONE || pc->hs_twin_state != 0)
            mc_coll_hook.comm_ready(pc);    /* an idup'ed intercommunicator's flat copy, the handshakes' copy */
    }
}

int mc_pcomm_try_ready(mc_pcomm *pc)
{
    if (pc->shadow_state == MC_SHADOW_COPYING && pc->shadow_req != MPI_REQUEST_NULL) {
        int flag = 0;
        if (PMPI_Test(&pc->shadow_req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return 0;
    }
    if (pc->shadow_state == MC_SHADOW_COPYING && pc->shadow_req == MPI_REQUEST_NULL)
        settle(pc);
    return pc->shadow_state == MC_SHADOW_READY;
}

mc_pcomm *mc_pcomms_all(void)
{
    return pcomms;
}

void mc_pcomms_drain_lost(void)
{
    for (mc_pcomm *pc = pcomms; pc; pc = pc->all_next)
        if (pc->shadow_state == MC_SHADOW_READY)
            drain_lost(pc);
}
