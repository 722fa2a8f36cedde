/*
 * deadlock.c - telling a deadlock from a slow peer, after the timeout
 * (or early, for a potential deadlock of strict mode).
 *
 * A rank whose wait outlasted the timeout asks the ranks it waits for what
 * they are doing, and they ask on (the closure of the wait-for graph), over
 * the checker's copy of MPI_COMM_WORLD. A rank answers only from inside the
 * engine's wait loop or a p2p call; one that does not answer is computing,
 * and is never blamed. Each wait is an AND of clauses, each clause an OR of
 * ranks (MPI_Waitall: AND; MPI_Waitany, MPI_ANY_SOURCE: OR; MPI_Finalize:
 * every rank not yet in MPI_Finalize). The ranks that can still be released
 * are the least fixpoint grown from the ranks that are not blocked; the
 * blocked rest is deadlocked. A second round after a short pause must find
 * every deadlocked rank in the same wait (same epoch) before anything is
 * reported, and only the lowest rank of the set reports, once.
 *
 * Potential deadlocks (strict mode): a rank whose only missing piece is the
 * acknowledgment of sends MPI already buffered is "relaxable". When treating
 * relaxable ranks as released frees everybody, the program completes only
 * thanks to buffering: one potential-deadlock report, and the relaxable
 * ranks are told to stop waiting for those acknowledgments. Such a wait
 * is probed early (mc_dl_early_probe below, which engine.c's wait loop
 * calls a few milliseconds into the stall: a short grace, hop by hop), so
 * a potential deadlock costs well under a second
 * and a send stops waiting at once on a receiver that is busy elsewhere.
 *
 * The answers come from deadlock_answer.c (the asked side); the finding
 * itself (the cycle in order, each rank's call and stack, the DOT graph) is
 * written by deadlock_report.c.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "runtime_internal.h"
#include "skipped.h"
#include "report.h"
#include "state.h"
#include "waitgraph.h"
#include "calltext.h"
#include "deadlock_internal.h"
#include "objects.h"
#include "stack.h"

/* ---- asking ----------------------------------------------------------------- */

static void node_clear(node *n)
{
    free(n->clause_len);
    free(n->ranks);
    free(n->clause_key);
    free(n->alt_len);
    free(n->started);
    free(n->details);
    free(n->hint);
    memset(n, 0, sizeof *n);
}

static void take_reply(node *nodes, int id, int src, const char *buf, int len)
{
    reply_hdr h;
    if (len < (int)sizeof h)
        return;
    memcpy(&h, buf, sizeof h);
    if (h.magic != REPLY_MAGIC || h.id != id || src < 0 || src >= mc_st.world_size)
        return;
    node *n = &nodes[src];
    node_clear(n);
    n->state = 2;
    n->h = h;
    const char *p = buf + sizeof h;
    if (h.nclauses > 0 && (n->clause_len = mc_malloc((size_t)h.nclauses * 4)))
        memcpy(n->clause_len, p, (size_t)h.nclauses * 4);
    p += h.nclauses * 4;
    if (h.nranks > 0 && (n->ranks = mc_malloc((size_t)h.nranks * 4)))
        memcpy(n->ranks, p, (size_t)h.nranks * 4);
    p += h.nranks * 4;
    if (h.nclauses > 0 && (n->clause_key = mc_malloc((size_t)h.nclauses * 8)))
        memcpy(n->clause_key, p, (size_t)h.nclauses * 8);
    p += h.nclauses * 8;
    if (h.nalts > 0 && h.nalts <= 4096 && (n->alt_len = mc_malloc((size_t)h.nalts * 4)))
        memcpy(n->alt_len, p, (size_t)h.nalts * 4);
    p += h.nalts > 0 ? h.nalts * 4 : 0;
    if (h.nstarted > 0 && (n->started = mc_malloc((size_t)h.nstarted * 8)))
        memcpy(n->started, p, (size_t)h.nstarted * 8);
    p += h.nstarted * 8;
    if (h.details_len > 0)
        n->details = mc_strndup(p, (size_t)h.details_len);
    p += h.details_len > 0 ? h.details_len : 0;
    if (h.hint_len > 0 && p + h.hint_len <= buf + len)
        n->hint = mc_strndup(p, (size_t)h.hint_len);
    if ((h.nclauses > 0 && (!n->clause_len || !n->clause_key)) || (h.nranks > 0 && !n->ranks)
        || (h.nstarted > 0 && !n->started) || (h.nalts > 0 && !n->alt_len)) {
        /* Part of the answer could not be kept (the checker's memory ran
         * out): the rank waits for something unknown, never blamed. */
        node_clear(n);
        n->state = 2;
        n->h = h;
        n->h.unknown = 1;
        n->h.nclauses = n->h.nranks = n->h.nstarted = n->h.details_len = n->h.hint_len = n->h.nalts = 0;
    }
}

static int asking_early;     /* the running detection is a strict wait's early probe */

static void ask(node *nodes, int id, int r, int details)
{
    if (r < 0 || r >= mc_st.world_size || nodes[r].state)
        return;
    nodes[r].state = 1;
    int q[3] = {id, details, asking_early};
    mc_dl_send_bytes(q, (int)sizeof q, r, TAG_QUERY);
}

/* Whether every rank this rank's wait reaches through answered waits has
 * answered: the rest of the world cannot change the verdict. */
static int closure_answered(const node *nodes, int me)
{
    int p = mc_st.world_size, head = 0, tail = 0, ok = 1;
    int *queue = mc_malloc((size_t)p * sizeof *queue);
    char *seen = mc_calloc((size_t)p, 1);
    if (!queue || !seen) {
        free(queue);
        free(seen);
        return 0;
    }
    seen[me] = 1;
    queue[tail++] = me;
    while (head < tail && ok) {
        const node *n = &nodes[queue[head++]];
        if (n->state != 2) {
            ok = 0;
            break;
        }
        if (!n->h.blocked || !n->clause_len)
            continue;
        int k = 0;
        for (int c = 0; c < n->h.nclauses; c++) {
            if (n->clause_len[c] < 0) {
                for (int r = 0; r < p; r++)
                    if (!seen[r]) { seen[r] = 1; queue[tail++] = r; }
                continue;
            }
            for (int j = 0; j < n->clause_len[c] && k < n->h.nranks; j++, k++) {
                int r = n->ranks ? n->ranks[k] : -1;
                if (r >= 0 && r < p && !seen[r]) { seen[r] = 1; queue[tail++] = r; }
            }
        }
    }
    free(queue);
    free(seen);
    return ok;
}

/* An early probe's grace, longer on a machine with more runnable work
 * than processors. A rank that does not answer within it counts as
 * computing, and the probe lets the stalled send go without a verdict; on
 * a loaded machine a rank that waits in MPI may simply not be scheduled
 * for tens of milliseconds (Python's unsafe exchange went unreported at a
 * load average of 10 on 2 cores, every run). The 1-minute load average
 * over the processors this process may run on, at most 8 times the base;
 * read again at most once a second. */
double mc_dl_early_grace(void)
{
    static double factor = 1.0, read_at = -10.0;
    static int ncpu;
    double now = mc_eng_now();
    if (now - read_at >= 1.0) {
        read_at = now;
        if (!ncpu) {
            cpu_set_t set;
            ncpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
            if (ncpu < 1)
                ncpu = 1;
        }
        double load = 0;
        FILE *f = fopen("/proc/loadavg", "re");
        if (f) {
            if (fscanf(f, "%lf", &load) != 1)
                load = 0;
            fclose(f);
        }
        factor = load / ncpu;
        factor = factor < 1.0 ? 1.0 : factor > 8.0 ? 8.0 : factor;
    }
    return MC_DL_EARLY_GRACE_S * factor;
}

static int gather_loop(node *nodes, int id, int details, double grace, mc_ready_fn ready, void *ctx,
                   int all_asked)
{
    double deadline = mc_eng_now() + grace;
    int len_cap = 1 << 16;
    char *buf = mc_malloc((size_t)len_cap);
    int got_new = 0;
    if (!buf)
        return 0;
    for (;;) {
        /* This rank's own wait first: the answers served here (and this
         * rank's answer to itself) say it is blocked, which must not stay
         * true after its message came; a detecting rank is never stale
         * for longer than one turn. */
        mc_eng_lock();      /* the answer reads every waiting thread's record */
        int moved = ready(ctx);
        if (!moved)
            mc_dl_service();
        mc_eng_unlock();
        if (moved) {
            free(buf);
            return 0;
        }
        int flag = 0;
        MPI_Status st;
        PMPI_Iprobe(MPI_ANY_SOURCE, TAG_REPLY, mc_st.world_dup, &flag, &st);
        if (flag) {
            int len = 0;
            PMPI_Get_count(&st, MPI_BYTE, &len);
            if (len > len_cap) {
                char *nb = mc_realloc(buf, (size_t)len);
                if (nb) { buf = nb; len_cap = len; }
            }
            PMPI_Recv(buf, len_cap, MPI_BYTE, st.MPI_SOURCE, TAG_REPLY, mc_st.world_dup, MPI_STATUS_IGNORE);
            mc_dl_received++;
            take_reply(nodes, id, st.MPI_SOURCE, buf, len);
            got_new = 1;
            node *n = &nodes[st.MPI_SOURCE];
            if (n->state == 2 && n->h.id == id && n->h.blocked && !details) {
                int k = 0;
                for (int c = 0; c < n->h.nclauses; c++) {
                    if (n->clause_len[c] < 0)
                        for (int r = 0; r < mc_st.world_size; r++)
                            ask(nodes, id, r, 0);
                    for (int j = 0; j < n->clause_len[c] && k < n->h.nranks; j++)
                        ask(nodes, id, n->ranks[k++], 0);
                }
            }
            continue;
        }
        int waiting = 0;
        for (int r = 0; r < mc_st.world_size; r++)
            waiting += nodes[r].state == 1;
        if (!waiting)
            break;
        if (all_asked && got_new) {
            got_new = 0;
            if (closure_answered(nodes, mc_st.world_rank))
                break;
        }
        if (mc_eng_now() > deadline) {
            free(buf);
            return 1;
        }
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    free(buf);
    return 1;
}

/* The pause between the rounds when the closure is walked hop by hop. It
 * keeps MPI progressing and the detector answering: a rank that merely
 * slept here held back what its peers waited for (an early probe found
 * MPICH's pt2pt/pingping "deadlocked" with Open MPI, both ranks in the same
 * waits 50 ms apart while the data sat in the prober's own queues). 0 when
 * this rank's own wait ended meanwhile. */
static int pause_progressing(double seconds, mc_ready_fn ready, void *ctx)
{
    for (double end = mc_eng_now() + seconds; mc_eng_now() < end;) {
        mc_eng_lock();
        int done = ready(ctx);
        if (!done)
            mc_dl_service();
        mc_eng_unlock();
        if (done)
            return 0;
        int flag = 0;
        PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, mc_st.world_dup, &flag, MPI_STATUS_IGNORE);
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    return 1;
}

/* Asks every rank in want (state 1) and their successors; gives up on the
 * silent ones after `grace` seconds. With `all_asked` (every rank was
 * asked at once), it ends as soon as this rank's closure has answered.
 * Returns 0 when this rank's own wait ended meanwhile. */
static int gather(node *nodes, int id, int details, double grace, mc_ready_fn ready, void *ctx,
                  int all_asked)
{
    mc_dl_gathering = 1;
    int ret = gather_loop(nodes, id, details, grace, ready, ctx, all_asked);
    mc_dl_gathering = 0;
    for (int r = 0; r < mc_st.world_size; r++)
        if (nodes[r].state == 1)
            mc_dl_stale_replies = 1;
    /* This rank's own answer is its wait record, which changes only when
     * the wait itself notices its end: look once more after every round.
     * A round whose answers all came at once never looked (gather_loop
     * looks only while it waits), and a message that arrived meanwhile
     * went unseen: a thread's send that ended its receiver's wait as the
     * detection began was reported as a deadlock (24 runs in 664 of
     * tests/programs/deadlock_ok_thread_sends_later.c and
     * deadlock_ok_threads_join_sleeper.c with Open MPI, docs/design.md). */
    if (ret) {
        mc_eng_lock();
        if (ready(ctx))
            ret = 0;
        mc_eng_unlock();
    }
    return ret;
}

mc_wg_node *mc_dl_graph_of(node *nodes)
{
    int p = mc_st.world_size;
    mc_wg_node *g = mc_calloc((size_t)p, sizeof *g);
    for (int r = 0; g && r < p; r++) {
        const node *n = &nodes[r];
        g[r].answered = n->state == 2;
        g[r].blocked = n->h.blocked;
        g[r].unknown = n->h.unknown;
        g[r].relaxable = n->h.relaxable;
        g[r].in_finalize = n->h.in_finalize;
        g[r].nclauses = n->clause_len ? n->h.nclauses : 0;
        g[r].clause_len = n->clause_len;
        g[r].ranks = n->ranks;
        g[r].nranks = n->ranks ? n->h.nranks : 0;
        g[r].clause_key = n->clause_key;
        g[r].started = n->started;
        g[r].nstarted = n->started ? n->h.nstarted : 0;
        g[r].nalts = n->alt_len ? n->h.nalts : 0;
        g[r].alt_len = n->alt_len;
    }
    return g;
}

/* Least fixpoint of "can still be released" (waitgraph.c). */
static void evaluate(node *nodes, char *released, int relax)
{
    int p = mc_st.world_size;
    mc_wg_node *g = mc_dl_graph_of(nodes);
    if (!g) {
        for (int r = 0; r < p; r++)
            released[r] = 1;     /* cannot decide: blame nobody */
        return;
    }
    mc_wg_released(g, p, relax, released);
    free(g);
}

static int cycle_leader(node *nodes, const char *released)
{
    mc_wg_node *g = mc_dl_graph_of(nodes);
    int leader = g ? mc_wg_cycle_leader(g, mc_st.world_size, released) : -1;
    free(g);
    return leader;
}

/* Evaluates the answers: 1 when this rank is deadlocked and leads the
 * report (the lowest rank on a wait-for cycle, which every detecting rank
 * finds the same: a rank that only waits on the cycle, e.g. in
 * MPI_Finalize, sees more of the graph but the same cycle). A rank that is
 * not the leader tells the leader to detect now: it may be waiting. */
static int verdict(node *nodes, char *released, int *leader, int *potential, int early)
{
    int p = mc_st.world_size, me = mc_st.world_rank;
    memset(released, 0, (size_t)p);
    evaluate(nodes, released, 0);
    if (released[me])
        return 0;
    *potential = 0;
    char *rel2 = mc_calloc((size_t)p, 1);
    if (rel2) {
        evaluate(nodes, rel2, 1);
        *potential = 1;
        for (int r = 0; r < p; r++)
            if (!released[r] && !rel2[r])
                *potential = 0;
        free(rel2);
    }
    if (early) {
        /* An early probe acts on potential deadlocks only, and they are
         * reported by their lowest relaxable rank: each of those probes its
         * own wait soon, so one of them always leads. */
        *leader = -1;
        for (int r = 0; r < p && *leader < 0; r++)
            if (!released[r] && nodes[r].h.relaxable)
                *leader = r;
        return *potential && *leader == me;
    }
    *leader = cycle_leader(nodes, released);
    if (*leader != me) {
        if (*leader >= 0) {
            int h = 1;
            mc_dl_send_bytes(&h, (int)sizeof h, *leader, TAG_HINT);
        }
        return 0;
    }
    return 1;
}

static int detect_counter;

int mc_dl_detect(mc_call *c, int early)
{
    static int reported;
    if (reported || mc_st.world_dup == MPI_COMM_NULL)
        return MC_DL_MOVED;
    mc_eng_lock();
    mc_dl_wait_state *self = mc_dl_mine();
    int blocked = self && self->ready && self->blocked && mc_dl_rank_blocked();
    mc_eng_unlock();
    if (!blocked)
        return MC_DL_MOVED;     /* another thread of the program could still release it */
    int entered = mc_dl_enter(1);
    int p = mc_st.world_size, me = mc_st.world_rank;
    int id = ((++detect_counter) & 0xffff) * 65536 + (me & 0xffff);
    node *nodes = mc_calloc((size_t)p, sizeof *nodes);
    char *released = mc_calloc((size_t)p, 1);
    if (!nodes || !released) {
        free(nodes);
        free(released);
        mc_dl_leave(entered);
        return MC_DL_MOVED;
    }
    double grace = mc_st.cfg.timeout_s < 1.0 ? mc_st.cfg.timeout_s : 1.0;
    if (early)
        grace = mc_dl_early_grace();
    asking_early = early;
    int result = MC_DL_MOVED;
    /* Up to BROADCAST_MAX ranks, everyone is asked at once and the round
     * ends when this rank's closure has answered: one round trip instead
     * of one per hop along the cycle (a 64-rank ring on 2 cores took 3.4 s
     * hop by hop). Beyond, the closure is walked hop by hop, so no rank
     * sends O(p) queries. An early probe walks hop by hop too: it runs
     * often, and the closure of a stalled strict send is mostly its
     * receiver and whoever that one waits for. */
    int all_asked = p <= BROADCAST_MAX && !early;
    ask(nodes, id, me, 0);      /* this rank answers itself through the same path */
    for (int r = 0; all_asked && r < p; r++)
        ask(nodes, id, r, 0);
    if (!gather(nodes, id, 0, grace, self->ready, self->ctx, all_asked))
        goto out;
    int leader, potential;
    if (!verdict(nodes, released, &leader, &potential, early)) {
        if (early && !released[me])
            result = MC_DL_STUCK;   /* blocked, but not this probe's to report */
        goto out;
    }
    /* Second round, after a pause: the same ranks in the same waits. When
     * every rank was asked, the pause collects the answers of ranks outside
     * this rank's closure (a rank in MPI_Finalize waiting on the deadlock),
     * so the report names every rank that can never be released. */
    if (all_asked) {
        if (!gather(nodes, id, 0, 0.05, self->ready, self->ctx, 0))
            goto out;
        if (!verdict(nodes, released, &leader, &potential, early))
            goto out;
    }
    /* The pause itself: that gather ends at once when every rank has
     * answered, and a message in flight needs the time to arrive. */
    if (!pause_progressing(0.05, self->ready, self->ctx))
        goto out;
    node *again = mc_calloc((size_t)p, sizeof *again);
    if (!again)
        goto out;
    int id2 = ((++detect_counter) & 0xffff) * 65536 + (me & 0xffff);
    for (int r = 0; r < p; r++)
        if (!released[r])
            ask(again, id2, r, 1);
    int stable = gather(again, id2, 1, grace, self->ready, self->ctx, 0);
    for (int r = 0; r < p && stable; r++)
        if (!released[r] && (again[r].state != 2 || !again[r].h.blocked || again[r].h.epoch != nodes[r].h.epoch))
            stable = 0;
    if (stable) {
        if (!potential)
            mc_eng_trace_verdict(self->ready, self->ctx);
        mc_dl_report_found(nodes, again, released, leader, potential, self->call ? self->call : c);
        if (potential) {
            for (int r = 0; r < p; r++) {
                if (released[r] || !nodes[r].h.relaxable)
                    continue;
                int rel[2] = {again[r].h.epoch, 0};
                if (r == me) {
                    mc_dl_relax = MC_RELAX_SITE;
                    if (self->call)
                        mc_dl_relax_reported(self->call->caller);
                    result = MC_DL_RELAXED;
                } else {
                    mc_dl_send_bytes(rel, (int)sizeof rel, r, TAG_RELAX);
                }
            }
        } else {
            reported = 1;
            result = MC_DL_STUCK;
            if (mc_st.cfg.abort_on_deadlock)
                mc_report_abort_job("deadlock (--abort-on-deadlock=no keeps it waiting)");
        }
    }
    for (int r = 0; r < p; r++)
        node_clear(&again[r]);
    free(again);
out:
    asking_early = 0;
    for (int r = 0; r < p; r++)
        node_clear(&nodes[r]);
    free(nodes);
    free(released);
    mc_dl_leave(entered);
    return result;
}

/* ---- a strict wait's early probe ------------------------------------------- */

/* Whether this wait lacks only strict-mode acknowledgments. */
int mc_dl_only_acks_missing(mc_describe_fn describe, void *ctx)
{
    mc_waitfor w;
    memset(&w, 0, sizeof w);
    describe(ctx, &w, 1);
    int only = w.npending > 0 && w.npending == w.nrelax;
    mc_waitfor_free(&w);
    return only;
}

/* Strict mode without long stalls (docs/design.md; engine.c calls it from
 * the wait loop's slow phase): a wait that lacks only the acknowledgments
 * of sends MPI already buffered is probed a few milliseconds in, instead
 * of after the timeout. A potential deadlock is
 * reported then (the wait ends, relaxed); no verdict means some rank it
 * reaches can still move (the receiver computes, or works inside a
 * collective), and the send does not wait on it any longer. A wait that
 * is really blocked (a deadlock, or a potential one another rank leads)
 * waits on for the timeout's detection or the leader's message. Engine
 * lock held; 1 when the probe ran. */
int mc_dl_early_probe(mc_call *c, mc_describe_fn describe, void *ctx, double *probe_at, int *probe)
{
    *probe_at = mc_eng_now() + MC_DL_EARLY_PROBE_S;
    if (mc_dl_deferred() || !mc_dl_only_acks_missing(describe, ctx))
        return 0;   /* a lower rank is probing, or a real wait: look again later */
    *probe = 0;
    mc_eng_unlock();
    int verdict = mc_dl_detect(c, 1);
    mc_eng_lock();
    if (verdict == MC_DL_MOVED)
        mc_dl_relax_wait(c);
    return 1;
}
