/*
 * deadlock_answer.c - the asked side of deadlock detection (deadlock.c asks):
 * this rank's wait as the detector sees it, the answers to other ranks'
 * queries (the wait's clauses, the collectives started, the call and its
 * stack when asked for details), the relax and hint messages, and the
 * replies still in flight. A rank answers only from inside the engine's
 * wait loop or a p2p call (mc_dl_service); one that does not answer is
 * computing, and is never blamed.
 */
#define _GNU_SOURCE /* gettid, pthread_getname_np */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "runtime_internal.h"
#include "skipped.h"
#include "report.h"
#include "state.h"
#include "calltext.h"
#include "deadlock_internal.h"
#include "stack.h"
#include "siteset.h"

/* ---- this rank's waits ---------------------------------------------------- */

mc_dl_wait_state mc_dl_waits[MC_DL_THREADS];   /* one per waiting thread; engine lock */
int mc_dl_epoch;
static __thread mc_dl_wait_state *mine;
static __thread const uintptr_t *preset_pcs;    /* mc_dl_preset_stack */
static __thread size_t preset_n;
static int nwaits;              /* records in use */
int mc_dl_relax;                /* a relax message came for the current wait */
static double deferred_until;   /* a lower rank's detection is under way */
int mc_dl_release_epoch;
int mc_dl_gathering;            /* replies belong to a running detection */
int mc_dl_stale_replies;        /* a detection ended with ranks still to answer */

static mc_siteset relaxed_sites;    /* strict waits given up there (a potential deadlock) */

int mc_dl_site_relaxed(const void *site)
{
    return mc_siteset_has(&relaxed_sites, site);
}

/* Of those, the sites of a reported potential deadlock: strict mode's
 * model of synchronous sends (p2p/syncmodel.c) leaves their sends out, or
 * it would report the same cycle again. */
static mc_siteset reported_sites;

int mc_dl_site_reported(const void *site)
{
    return mc_siteset_has(&reported_sites, site);
}

void mc_dl_relax_reported(const void *site)
{
    if (site) {
        mc_siteset_add(&reported_sites, site);
        mc_dl_relax_site(site);
    }
}

mc_dl_wait_state *mc_dl_mine(void)
{
    return mine;
}

/* The rule (docs/design.md, "The program's threads"): a rank is blocked
 * only when no thread of the program could still make the call that
 * releases a waiting one. Under MPI_THREAD_MULTIPLE that means every
 * thread the program runs (core/threads.c: the main one and those it
 * started outside MPI calls) waits in the engine, or waits in
 * pthread_join for one that can only end after it returns; a thread that
 * computes, sleeps or waits elsewhere could still call MPI. Under the
 * other levels no other thread may call MPI while one is inside it. */
int mc_dl_rank_blocked(void)
{
    if (nwaits == 0)
        return 0;
    if (mc_st.thread_level != MPI_THREAD_MULTIPLE)
        return 1;
    int threads = __atomic_load_n(&mc_st.app_threads, __ATOMIC_RELAXED) + 1,
        joining = __atomic_load_n(&mc_st.app_joining, __ATOMIC_RELAXED);
    return nwaits + joining >= threads;
}

/* Strict mode makes a send wait for its receive so that the detector can
 * prove a potential deadlock. Under MPI_THREAD_MULTIPLE the detector calls
 * a rank blocked only while no other thread of the program could still
 * release it (mc_dl_rank_blocked, above), so while the program runs threads of its
 * own such a wait could end in no report: it only slowed a program
 * (MPICH's threads/pt2pt/mt_iprobe_sendrecv 17 to 29 times) or stalled an
 * unsafe exchange MPI runs fine. Those sends go as in fast mode. A program
 * that asked for MPI_THREAD_MULTIPLE but runs no thread of its own (every
 * mpi4py script: mpi4py asks for it by default) is checked as a
 * single-threaded one. The answer cannot change during a send: only the
 * thread making it exists. */
int mc_eng_strict_now(void)
{
    return mc_eng_strict && (mc_st.thread_level != MPI_THREAD_MULTIPLE
                             || __atomic_load_n(&mc_st.app_threads, __ATOMIC_RELAXED) == 0);
}

void mc_dl_set_waiting(mc_call *c, mc_ready_fn ready, mc_describe_fn describe, void *ctx)
{
    mc_dl_wait_state *w = mine;
    for (int i = 0; !w && i < MC_DL_THREADS; i++)
        if (!mc_dl_waits[i].blocked)
            w = &mc_dl_waits[i];
    if (!w)
        return;     /* more waiting threads than records: never blocked (nwaits short) */
    if (!mine)
        nwaits++;
    mine = w;
    w->ready = ready;
    w->call = c;
    w->describe = describe;
    w->ctx = ctx;
    w->blocked = 1;
    w->npcs = 0;
    w->tid = 0;
    w->preset = preset_pcs != NULL;
    if (preset_pcs) {
        w->npcs = (int)(preset_n < MC_DL_PCS ? preset_n : MC_DL_PCS);
        memcpy(w->pcs, preset_pcs, (size_t)w->npcs * sizeof w->pcs[0]);
    }
    mc_dl_epoch++;
    mc_dl_relax = MC_RELAX_NONE;
}

void mc_dl_preset_stack(const uintptr_t *pcs, size_t npcs)
{
    preset_pcs = pcs;
    preset_n = npcs;
}

void mc_dl_note_slow(void)
{
    /* The thread's own stack, for an answer another thread of this rank
     * may give: only it can unwind itself. Taken once per wait, when the
     * program runs threads besides the main one. */
    mc_dl_wait_state *w = mine;
    if (!w || (w->npcs && !w->preset) || w->tid || __atomic_load_n(&mc_st.app_threads, __ATOMIC_RELAXED) == 0)
        return;
    w->tid = (int)gettid();
    if (pthread_getname_np(pthread_self(), w->name, sizeof w->name) != 0)
        w->name[0] = 0;
    if (w->preset)
        return;     /* the stack of the call waited for is kept */
    size_t n = mc_stack_capture(w->pcs, MC_DL_PCS);
    w->npcs = n ? (int)n : -1;
}

void mc_dl_relax_site(const void *site)
{
    if (site)
        mc_siteset_add(&relaxed_sites, site);
}

void mc_dl_relax_here(mc_call *c)
{
    mc_dl_relax = MC_RELAX_SITE;
    if (c)
        mc_dl_relax_site(c->caller);
}

/* Call sites whose strict waits an early probe let go without a verdict,
 * and how often: a site that stalls on a busy receiver again and again (a
 * loop sending to a rank that computes before it receives) stops waiting
 * for good after MC_DL_EARLY_PER_SITE, so its cost stays a few probes. */
static const void *probed_site[MC_SITESET_MAX];
static int probed_count[MC_SITESET_MAX], nprobed;

void mc_dl_relax_wait(mc_call *c)
{
    const void *site = c ? c->caller : NULL;
    int i = 0;
    while (i < nprobed && probed_site[i] != site)
        i++;
    if (i == nprobed && nprobed < MC_SITESET_MAX) {
        probed_site[nprobed] = site;
        probed_count[nprobed++] = 0;
    }
    if (i == nprobed || ++probed_count[i] >= MC_DL_EARLY_PER_SITE) {
        mc_dl_relax_here(c);    /* the table is full, or the site used up its probes */
        return;
    }
    mc_dl_relax = MC_RELAX_WAIT;
}

void mc_dl_clear_waiting(void)
{
    mc_dl_wait_state *w = mine;
    if (!w)
        return;
    w->blocked = 0;
    w->call = NULL;
    mine = NULL;
    nwaits--;
    mc_dl_epoch++;
    mc_dl_relax = MC_RELAX_NONE;
}

/* ---- replies in flight ------------------------------------------------------ */

typedef struct outmsg { MPI_Request req; struct outmsg *next; char data[]; } outmsg;
static outmsg *outgoing;
static long dl_sent;            /* the detector's messages this rank sent ... */
long mc_dl_received;            /* ... and received: MPI_Finalize drains until the totals agree */

void mc_dl_send_bytes(const void *data, int len, int dest, int tag)
{
    outmsg *m = mc_malloc(sizeof *m + (size_t)len);
    if (!m)
        return;
    memcpy(m->data, data, (size_t)len);
    if (PMPI_Isend(m->data, len, MPI_BYTE, dest, tag, mc_st.world_dup, &m->req) != MPI_SUCCESS) {
        free(m);
        return;
    }
    m->next = outgoing;
    outgoing = m;
    dl_sent++;
}

static void reap_outgoing(void)
{
    outmsg **pp = &outgoing;
    while (*pp) {
        int flag = 0;
        PMPI_Test(&(*pp)->req, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            outmsg *m = *pp;
            *pp = m->next;
            free(m);
        } else {
            pp = &(*pp)->next;
        }
    }
}

/* ---- answering -------------------------------------------------------------- */

/* Collective instances this rank started and has not finished (src/coll/). */
#define STARTED_MAX 64

/* One section per waiting thread in the details: the call as text and its
 * stack as call sites (callwire.c), separated by this character. */
#define SECTION_SEP '\x1e'

/* The details of the waiting threads (their calls, as text) into text. */
static void details_of(const int *slot, int nalts, char *text, size_t cap)
{
    int several = nalts > 1 || __atomic_load_n(&mc_st.app_threads, __ATOMIC_RELAXED) > 0;
    size_t len = 0;
    text[0] = 0;
    for (int a = 0; a < nalts && len + 2 < cap; a++) {
        mc_dl_wait_state *w = &mc_dl_waits[slot[a]];
        if (a)
            text[len++] = SECTION_SEP;
        if (w == mine) {
            uintptr_t pcs[MC_DL_PCS];
            size_t np = w->preset ? 0 : mc_stack_capture(pcs, MC_DL_PCS);
            char name[16] = "";
            if (several && pthread_getname_np(pthread_self(), name, sizeof name) != 0)
                name[0] = 0;
            mc_call_wire_of(w->call, w->preset ? w->pcs : pcs, w->preset ? (size_t)w->npcs : np,
                            several ? (int)gettid() : 0, name, text + len, cap - len);
        } else {
            mc_call_wire_of(w->call, w->pcs, w->npcs > 0 ? (size_t)w->npcs : 0, w->tid > 0 ? w->tid : -1,
                            w->name, text + len, cap - len);
        }
        len += strlen(text + len);
    }
}

static void answer(int id, int to, int details, int early)
{
    reply_hdr h = {REPLY_MAGIC, id, mc_st.world_rank, mc_dl_rank_blocked(), mc_dl_epoch, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    mc_waitfor w[MC_DL_THREADS];
    int slot[MC_DL_THREADS], nalts = 0;
    char *text = NULL, hint[512] = "";
    uint64_t started[STARTED_MAX];
    /* Started: the handshakes under way, and the nonblocking collectives
     * whose handshake ended but whose request this rank still holds. Only
     * the first were counted once, so a rank whose idup had passed its
     * handshake was "not joined": when Open MPI itself hung in
     * MPICH's comm/comm_idup_isend (3 of 10 plain runs), every rank
     * waited for the others "to join the collective", a false deadlock. */
    h.nstarted = mc_coll_hook.started_keys(started, STARTED_MAX);
    if (h.nstarted <= STARTED_MAX)
        h.nstarted += mc_prec_coll_keys(started + h.nstarted, STARTED_MAX - h.nstarted);
    if (h.nstarted > STARTED_MAX) {
        h.nstarted = 0;
        h.unknown = 1;      /* too many to tell: never blamed */
    }
    if (h.blocked) {
        /* One alternative per waiting thread (waitgraph.h): each thread's
         * wait described on its own, then concatenated. */
        int npending = 0, nrelax = 0;
        for (int i = 0; i < MC_DL_THREADS; i++) {
            if (!mc_dl_waits[i].blocked || !mc_dl_waits[i].describe)
                continue;
            memset(&w[nalts], 0, sizeof w[nalts]);
            mc_dl_waits[i].describe(mc_dl_waits[i].ctx, &w[nalts], 1);
            h.unknown |= w[nalts].unknown;
            h.nclauses += w[nalts].nclauses;
            h.nranks += w[nalts].nranks;
            npending += w[nalts].npending;
            nrelax += w[nalts].nrelax;
            if (mc_dl_waits[i].call && mc_dl_waits[i].call->fn == MC_FN_MPI_Finalize)
                h.in_finalize = 1;
            slot[nalts++] = i;
        }
        /* Strict-mode acknowledgments are waited for only with one thread
         * (engine.c): a relaxable rank has one wait. */
        h.relaxable = nalts == 1 && npending > 0 && npending == nrelax;
        /* An early probe (deadlock.c) judges a strict wait a few ms in. A
         * rank that also has older sends still unacknowledged (strict mode
         * let them go) is ahead of its receivers: its envelopes may sit in
         * MPI's queues while the receiver waits for one of them (MPICH's
         * pt2pt/pingping with Open MPI: thousands of sends ahead, and both
         * ranks in the same waits 50 ms apart while Open MPI's shared-memory
         * transport caught up). Such a rank is not judged early. */
        if (early && h.relaxable && mc_p2p_hook.env_unacked() > nrelax)
            h.unknown = 1;
        h.nalts = nalts > 1 ? nalts : 0;
        if (details && nalts) {
            text = mc_malloc(DETAILS_MAX);
            if (text) {
                details_of(slot, nalts, text, DETAILS_MAX);
                h.details_len = (int32_t)strlen(text) + 1;
            }
            for (int a = 0; a < nalts && !hint[0]; a++)
                if (mc_dl_waits[slot[a]].call)
                    mc_dl_near_miss(mc_dl_waits[slot[a]].call, hint, sizeof hint);
            if (hint[0])
                h.hint_len = (int32_t)strlen(hint) + 1;
        }
    }
    size_t len = sizeof h + (size_t)h.nclauses * 12 + (size_t)h.nranks * 4 + (size_t)h.nalts * 4
                 + (size_t)h.nstarted * 8 + (size_t)h.details_len + (size_t)h.hint_len;
    char *buf = mc_malloc(len);
    if (buf) {
        char *p = buf;
        memcpy(p, &h, sizeof h);
        p += sizeof h;
        for (int a = 0; a < nalts; a++)
            if (w[a].nclauses) {
                memcpy(p, w[a].clause_len, (size_t)w[a].nclauses * 4);
                p += w[a].nclauses * 4;
            }
        for (int a = 0; a < nalts; a++)
            if (w[a].nranks) {
                memcpy(p, w[a].ranks, (size_t)w[a].nranks * 4);
                p += w[a].nranks * 4;
            }
        for (int a = 0; a < nalts; a++)
            for (int c = 0; c < w[a].nclauses; c++, p += 8) {
                uint64_t k = w[a].clause_key ? w[a].clause_key[c] : 0;
                memcpy(p, &k, 8);
            }
        for (int a = 0; a < h.nalts; a++, p += 4)
            memcpy(p, &w[a].nclauses, 4);
        if (h.nstarted) { memcpy(p, started, (size_t)h.nstarted * 8); p += h.nstarted * 8; }
        if (h.details_len) { memcpy(p, text, (size_t)h.details_len); p += h.details_len; }
        if (h.hint_len) memcpy(p, hint, (size_t)h.hint_len);
        mc_dl_send_bytes(buf, (int)len, to, TAG_REPLY);
        free(buf);
    }
    free(text);
    for (int a = 0; a < nalts; a++)
        mc_waitfor_free(&w[a]);
}

/* One thread at a time serves and detects: two threads probing for the
 * same message, and both receiving it, would leave one blocked in PMPI_Recv.
 * A thread that finds the detector busy skips its turn (it holds the engine
 * lock then, which the detecting thread takes while it holds this one). */
static pthread_mutex_t dl_mutex = PTHREAD_MUTEX_INITIALIZER;
static __thread int dl_held;

int mc_dl_enter(int wait)
{
    if (dl_held)
        return 0;
    if (mc_st.thread_level == MPI_THREAD_MULTIPLE) {
        if (wait)
            pthread_mutex_lock(&dl_mutex);
        else if (pthread_mutex_trylock(&dl_mutex) != 0)
            return -1;
    }
    dl_held = 1;
    return 1;
}

void mc_dl_leave(int entered)
{
    if (entered != 1)
        return;
    dl_held = 0;
    if (mc_st.thread_level == MPI_THREAD_MULTIPLE)
        pthread_mutex_unlock(&dl_mutex);
}

static void serve(void);

void mc_dl_service(void)
{
    if (mc_st.world_dup == MPI_COMM_NULL)
        return;
    int entered = mc_dl_enter(0);
    if (entered < 0)
        return;
    serve();
    mc_dl_leave(entered);
}

static void serve(void)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, TAG_QUERY, mc_st.world_dup, &flag, &st);
        if (!flag)
            break;
        int q[3];
        PMPI_Recv(q, 3, MPI_INT, st.MPI_SOURCE, TAG_QUERY, mc_st.world_dup, MPI_STATUS_IGNORE);
        mc_dl_received++;
        answer(q[0], st.MPI_SOURCE, q[1], q[2]);
        /* A lower rank is running a detection that reaches this rank: let
         * it finish instead of starting a second one (with every rank of a
         * large deadlock detecting at once, the queries crowd each other
         * out). If this rank is the one to report, it still does, later. */
        if (st.MPI_SOURCE < mc_st.world_rank) {
            /* An early probe (q[2]) is over in a round and a pause. */
            double grace = q[2] ? mc_dl_early_grace() : mc_st.cfg.timeout_s < 1.0 ? mc_st.cfg.timeout_s : 1.0;
            double until = mc_eng_now() + 2 * grace + (q[2] ? 0.06 : 0.2);
            if (until > deferred_until)
                deferred_until = until;
        }
    }
    for (;;) {
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, TAG_RELAX, mc_st.world_dup, &flag, &st);
        if (!flag)
            break;
        int r[2];
        PMPI_Recv(r, 2, MPI_INT, st.MPI_SOURCE, TAG_RELAX, mc_st.world_dup, MPI_STATUS_IGNORE);
        mc_dl_received++;
        /* Only a rank with one waiting thread is ever relaxable. */
        for (int i = 0; nwaits == 1 && r[0] == mc_dl_epoch && i < MC_DL_THREADS; i++) {
            if (!mc_dl_waits[i].blocked)
                continue;
            mc_dl_relax = MC_RELAX_SITE;
            mc_dl_release_epoch++;
            if (mc_dl_waits[i].call)
                mc_dl_relax_reported(mc_dl_waits[i].call->caller);
        }
    }
    for (;;) {
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, TAG_HINT, mc_st.world_dup, &flag, &st);
        if (!flag)
            break;
        int h = 0;
        PMPI_Recv(&h, 1, MPI_INT, st.MPI_SOURCE, TAG_HINT, mc_st.world_dup, MPI_STATUS_IGNORE);
        mc_dl_received++;
        deferred_until = 0;
    }
    /* Replies that came after their detection ended (a rank that was
     * computing answers when it next enters MPI): dropped, so nothing is
     * left unreceived on the checker's world copy. */
    while (mc_dl_stale_replies && !mc_dl_gathering) {
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, TAG_REPLY, mc_st.world_dup, &flag, &st);
        if (!flag)
            break;
        int len = 0;
        PMPI_Get_count(&st, MPI_BYTE, &len);
        char *junk = mc_malloc(len > 0 ? (size_t)len : 1);
        if (!junk)
            break;
        PMPI_Recv(junk, len, MPI_BYTE, st.MPI_SOURCE, TAG_REPLY, mc_st.world_dup, MPI_STATUS_IGNORE);
        mc_dl_received++;
        free(junk);
    }
    if (outgoing)
        reap_outgoing();
}

int mc_dl_deferred(void)
{
    /* A rank defers to lower ranks' detections, but not forever: every
     * rank's detection asks everyone, so a rank waiting on a slow peer
     * that detects again each timeout would otherwise keep an unrelated
     * deadlock elsewhere from being reported. */
    static int epoch = -1;
    static double first;
    double t = mc_eng_now();
    if (t >= deferred_until)
        return 0;
    if (epoch != mc_dl_epoch) {
        epoch = mc_dl_epoch;
        first = t;
    }
    double grace = mc_st.cfg.timeout_s < 1.0 ? mc_st.cfg.timeout_s : 1.0;
    return t - first < 3 * grace + 0.5;
}

/* MPI_Finalize, once every rank is there (no detection starts any more):
 * takes in, without answering, the detector's messages still unreceived
 * (a query to a rank that was computing, a reply that came after its
 * detection ended). Left in MPI's queues, MPICH's UCX prints "unexpected
 * tag-receive descriptor ... was not matched" at exit, which changed the
 * output of MPICH's pt2pt/pingping once in 28 runs. Returns this rank's
 * messages sent minus received, for the job-wide sum. */
long mc_dl_final_drain(void)
{
    static const int tags[] = {TAG_QUERY, TAG_REPLY, TAG_RELAX, TAG_HINT};
    if (mc_st.world_dup == MPI_COMM_NULL)
        return 0;
    for (size_t t = 0; t < sizeof tags / sizeof *tags; t++) {
        for (;;) {
            int flag = 0, len = 0;
            MPI_Status st;
            PMPI_Iprobe(MPI_ANY_SOURCE, tags[t], mc_st.world_dup, &flag, &st);
            if (!flag)
                break;
            PMPI_Get_count(&st, MPI_BYTE, &len);
            char *junk = mc_malloc(len > 0 ? (size_t)len : 1);
            if (!junk)
                break;
            PMPI_Recv(junk, len, MPI_BYTE, st.MPI_SOURCE, tags[t], mc_st.world_dup, MPI_STATUS_IGNORE);
            free(junk);
            mc_dl_received++;
        }
    }
    reap_outgoing();
    return dl_sent - mc_dl_received;
}
