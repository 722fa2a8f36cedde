/*
 * deadlock_answer.c - the asked side of deadlock detection (deadlock.c asks):
 * this rank's wait as the detector sees it, the answers to other ranks'
 * queries (the wait's clauses, the collectives started, the call and its
 * stack when asked for details), the relax and hint messages, and the
 * replies still in flight. A rank answers only from inside the engine's
 * wait loop or a p2p call (mc_dl_service); one that does not answer is
 * computing, and is never blamed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "runtime_internal.h"
#include "skipped.h"
#include "report.h"
#include "state.h"
#include "calltext.h"
#include "deadlock_internal.h"
#include "stack.h"

/* ---- this rank's wait ----------------------------------------------------- */

mc_dl_wait_state mc_dl_w;       /* this rank's wait (one per process) */
int mc_dl_relax;                /* a relax message came for the current wait */
static double deferred_until;   /* a lower rank's detection is under way */
int mc_dl_release_epoch;
int mc_dl_gathering;            /* replies belong to a running detection */
int mc_dl_stale_replies;        /* a detection ended with ranks still to answer */

double mc_dl_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define RELAXED_SITES 64
static const void *relaxed_sites[RELAXED_SITES];
static int nrelaxed_sites;

int mc_dl_site_relaxed(const void *site)
{
    for (int i = 0; i < nrelaxed_sites; i++)
        if (relaxed_sites[i] == site)
            return 1;
    return 0;
}


int mc_dl_one_thread(void)
{
    return mc_st.thread_level != MPI_THREAD_MULTIPLE || __atomic_load_n(&mc_st.app_threads, __ATOMIC_RELAXED) == 0;
}

void mc_dl_set_waiting(mc_call *c, mc_ready_fn ready, mc_describe_fn describe, void *ctx)
{
    /* One wait per process is described; with several threads of the
     * program (core/threads.c) the detector stays off (mc_dl_detect), and
     * so does this. */
    if (!mc_dl_one_thread())
        return;
    mc_dl_w.ready = ready;
    mc_dl_w.call = c;
    mc_dl_w.describe = describe;
    mc_dl_w.ctx = ctx;
    mc_dl_w.blocked = 1;
    mc_dl_w.epoch++;
    mc_dl_relax = 0;
}

void mc_dl_relax_site(const void *site)
{
    if (site && nrelaxed_sites < RELAXED_SITES && !mc_dl_site_relaxed(site))
        relaxed_sites[nrelaxed_sites++] = site;
}

void mc_dl_relax_here(mc_call *c)
{
    mc_dl_relax = 1;
    if (c)
        mc_dl_relax_site(c->caller);
}

void mc_dl_clear_waiting(void)
{
    /* Set only while the program has one thread: with more, nothing to
     * clear, and several threads would write here at once. */
    if (mc_st.thread_level == MPI_THREAD_MULTIPLE && !mc_dl_w.blocked)
        return;
    mc_dl_w.blocked = 0;
    mc_dl_w.epoch++;
    mc_dl_relax = 0;
}

/* ---- replies in flight ------------------------------------------------------ */

typedef struct outmsg { MPI_Request req; struct outmsg *next; char data[]; } outmsg;
static outmsg *outgoing;

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

static void answer(int id, int to, int details)
{
    reply_hdr h = {REPLY_MAGIC, id, mc_st.world_rank, mc_dl_w.blocked, mc_dl_w.epoch, 0, 0, 0, 0, 0, 0, 0, 0};
    mc_waitfor w = {0};
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
    if (mc_dl_w.blocked) {
        mc_dl_w.describe(mc_dl_w.ctx, &w, 1);
        h.in_finalize = mc_dl_w.call && mc_dl_w.call->fn == MC_FN_MPI_Finalize;
        h.relaxable = w.npending > 0 && w.npending == w.nrelax;
        h.unknown |= w.unknown;
        h.nclauses = w.nclauses;
        h.nranks = w.nranks;
        if (details && mc_dl_w.call) {
            /* The call as text, its stack as call sites the reporting
             * rank resolves (callwire.c). */
            text = mc_malloc(DETAILS_MAX);
            if (text) {
                mc_call_wire(mc_dl_w.call, text, DETAILS_MAX);
                h.details_len = (int32_t)strlen(text) + 1;
            }
            mc_dl_near_miss(mc_dl_w.call, hint, sizeof hint);
            if (hint[0])
                h.hint_len = (int32_t)strlen(hint) + 1;
        }
    }
    size_t len = sizeof h + (size_t)h.nclauses * 12 + (size_t)h.nranks * 4 + (size_t)h.nstarted * 8
                 + (size_t)h.details_len + (size_t)h.hint_len;
    char *buf = mc_malloc(len);
    if (buf) {
        char *p = buf;
        memcpy(p, &h, sizeof h);
        p += sizeof h;
        if (h.nclauses) { memcpy(p, w.clause_len, (size_t)h.nclauses * 4); p += h.nclauses * 4; }
        if (h.nranks) { memcpy(p, w.ranks, (size_t)h.nranks * 4); p += h.nranks * 4; }
        for (int c = 0; c < h.nclauses; c++, p += 8) {
            uint64_t k = w.clause_key ? w.clause_key[c] : 0;
            memcpy(p, &k, 8);
        }
        if (h.nstarted) { memcpy(p, started, (size_t)h.nstarted * 8); p += h.nstarted * 8; }
        if (h.details_len) { memcpy(p, text, (size_t)h.details_len); p += h.details_len; }
        if (h.hint_len) memcpy(p, hint, (size_t)h.hint_len);
        mc_dl_send_bytes(buf, (int)len, to, TAG_REPLY);
        free(buf);
    }
    free(text);
    mc_waitfor_free(&w);
}


void mc_dl_service(void)
{
    if (mc_st.world_dup == MPI_COMM_NULL)
        return;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, TAG_QUERY, mc_st.world_dup, &flag, &st);
        if (!flag)
            break;
        int q[3];
        PMPI_Recv(q, 3, MPI_INT, st.MPI_SOURCE, TAG_QUERY, mc_st.world_dup, MPI_STATUS_IGNORE);
        answer(q[0], st.MPI_SOURCE, q[1]);
        /* A lower rank is running a detection that reaches this rank: let
         * it finish instead of starting a second one (with every rank of a
         * large deadlock detecting at once, the queries crowd each other
         * out). If this rank is the one to report, it still does, later. */
        if (st.MPI_SOURCE < mc_st.world_rank)
            deferred_until = mc_dl_now() + 2 * (mc_st.cfg.timeout_s < 1.0 ? mc_st.cfg.timeout_s : 1.0) + 0.2;
    }
    for (;;) {
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, TAG_RELAX, mc_st.world_dup, &flag, &st);
        if (!flag)
            break;
        int r[2];
        PMPI_Recv(r, 2, MPI_INT, st.MPI_SOURCE, TAG_RELAX, mc_st.world_dup, MPI_STATUS_IGNORE);
        if (mc_dl_w.blocked && r[0] == mc_dl_w.epoch) {
            mc_dl_relax = 1;
            mc_dl_release_epoch++;
            if (mc_dl_w.call)
                mc_dl_relax_site(mc_dl_w.call->caller);
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
    double t = mc_dl_now();
    if (t >= deferred_until)
        return 0;
    if (epoch != mc_dl_w.epoch) {
        epoch = mc_dl_w.epoch;
        first = t;
    }
    double grace = mc_st.cfg.timeout_s < 1.0 ? mc_st.cfg.timeout_s : 1.0;
    return t - first < 3 * grace + 0.5;
}
