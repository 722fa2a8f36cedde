/*
 * deadlock_report.c - the one finding for a deadlock the detector
 * (deadlock.c) proved: the cycle in order ("rank 0 in MPI_Recv (ring.c:12)
 * waits for rank 1; ..."), each rank's call, arguments and stack, the sends
 * MPI buffered for a potential deadlock, the near misses the blocked
 * receivers saw (near_miss.c) as the likely cause, and the wait-for graph as
 * DOT for --graph.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calltext.h"
#include "skipped.h"
#include "deadlock_internal.h"
#include "report.h"
#include "stack.h"
#include "state.h"
#include "rank_board.h"

/* The base name and line of where a call was made (finding.h,
 * mc_call_site), NULL when unknown. */
static const char *site_of(const mc_call_text *ct, int *line)
{
    const mc_frame *f = mc_call_site(ct);
    if (!f)
        return NULL;
    const char *base = strrchr(f->file, '/');
    *line = f->line;
    return base ? base + 1 : f->file;
}

/* "rank 0 in MPI_Recv (ring.c:12) waits for rank 1" */
static int started_by(const node *m, uint64_t key)
{
    for (int i = 0; m->state == 2 && m->started && i < m->h.nstarted; i++)
        if (m->started[i] == key)
            return 1;
    return 0;
}

/* The clauses [c0, c1) of rank r's answer n (one waiting thread's, whose
 * ranks start at k0), as "rank 0 in MPI_Recv (ring.c:12) waits for rank 1". */
static void describe_node(char *out, size_t cap, const node *all, const node *n, int r,
                          const mc_call_text *ct, int c0, int c1, int k0)
{
    size_t len = strlen(out);
    int line = 0;
    const char *base = site_of(ct, &line);
    char thread[64] = "";
    if (ct && ct->tid > 0)
        snprintf(thread, sizeof thread, ct->thread_name[0] ? " (thread %d \"%s\")" : " (thread %d)", ct->tid,
                 ct->thread_name);
    if (base)
        snprintf(out + len, cap - len, "%srank %d%s in %s (%s:%d) waits for ", len ? "; " : "", r, thread,
                 ct && ct->call ? ct->call : "?", base, line);
    else
        snprintf(out + len, cap - len, "%srank %d%s in %s waits for ", len ? "; " : "", r, thread,
                 ct && ct->call ? ct->call : "?");
    len = strlen(out);
    /* A collective's clauses (one per member, with the instance's key):
     * named together, without the members that already started it. */
    int k = k0, shown = 0, missing = 0;
    for (int c = c0; c < c1 && c < n->h.nclauses; c++) {
        uint64_t key = n->clause_key ? n->clause_key[c] : 0;
        int clen = n->clause_len[c];
        if (key && clen == 1 && k < n->h.nranks) {
            int m = n->ranks[k++];
            if (m >= 0 && m < mc_st.world_size && started_by(&all[m], key))
                continue;
            len = strlen(out);
            if (!missing)
                snprintf(out + len, cap - len, "%s%s", shown ? " and " : "", "rank(s) ");
            len = strlen(out);
            if (missing < 8)
                snprintf(out + len, cap - len, "%s%d", missing ? ", " : "", m);
            else if (missing == 8)
                snprintf(out + len, cap - len, ", ...");
            missing++;
            continue;
        }
        len = strlen(out);
        if (missing) {
            snprintf(out + len, cap - len, " to join the collective");
            len = strlen(out);
            missing = 0;
            shown = 1;
        }
        if (shown) {
            snprintf(out + len, cap - len, " and ");
            len = strlen(out);
        }
        shown = 1;
        if (clen < 0) {
            snprintf(out + len, cap - len, "every rank to reach MPI_Finalize");
            continue;
        }
        if (clen > 1)
            snprintf(out + len, cap - len, "any of ranks ");
        else
            snprintf(out + len, cap - len, "rank ");
        for (int j = 0; j < clen; j++, k++) {
            len = strlen(out);
            if (j < 8)
                snprintf(out + len, cap - len, "%s%d", j ? ", " : "", k < n->h.nranks ? n->ranks[k] : -1);
            else if (j == 8)
                snprintf(out + len, cap - len, ", ...");
        }
    }
    if (missing) {
        len = strlen(out);
        snprintf(out + len, cap - len, " to join the collective");
    }
}

/* The deadlocked ranks as a Graphviz digraph, into this rank's part
 * directory ("deadlock.dot"), which the launcher copies to --graph=FILE.
 * Node labels: the rank, its call, file:line; an edge: "waits for". */
static void write_dot(node *nodes, const char *released, mc_call_text *calls, size_t ncalls,
                      int potential)
{
    FILE *f = mc_report_part_open("deadlock.dot");
    if (!f)
        return;
    int p = mc_st.world_size;
    fprintf(f, "digraph %s {\n  rankdir=LR;\n  node [shape=box, fontname=\"monospace\"];\n",
            potential ? "potential_deadlock" : "deadlock");
    fprintf(f, "  label=\"%s (ranks in MPI_COMM_WORLD); an arrow: waits for\";\n",
            potential ? "potential deadlock" : "deadlock");
    for (int r = 0; r < p; r++) {
        if (released[r])
            continue;
        const mc_call_text *ct = NULL;
        for (size_t i = 0; i < ncalls && !ct; i++)
            if (calls[i].rank == r)
                ct = &calls[i];
        int line = 0;
        const char *base = site_of(ct, &line);
        char where[256] = "";
        if (base)
            snprintf(where, sizeof where, "\\n%s:%d", base, line);
        /* Names and paths come from the program: keep quotes out. */
        for (char *c = where; *c; c++)
            if (*c == '"')
                *c = '\'';
        fprintf(f, "  r%d [label=\"rank %d\\n%s%s\"];\n", r, r, ct && ct->call ? ct->call : "?", where);
    }
    mc_wg_node *g = mc_dl_graph_of(nodes);
    for (int v = 0; g && v < p; v++)
        for (int w = 0; !released[v] && w < p; w++)
            if (!released[w] && mc_wg_waits_for(g, p, v, w, released))
                fprintf(f, "  r%d -> r%d;\n", v, w);
    free(g);
    fprintf(f, "}\n");
    fclose(f);
}

/* The deadlocked ranks in the order a reader follows them: the cycle
 * through the leader first (each rank waits for the next, the last for the
 * leader), then the ranks that only wait on it, ascending. */
static int cycle_order(node *nodes, const char *released, int leader, int *order)
{
    int p = mc_st.world_size, n = 0;
    mc_wg_node *g = mc_dl_graph_of(nodes);
    int *parent = mc_malloc((size_t)p * sizeof *parent), *queue = mc_malloc((size_t)p * sizeof *queue);
    char *in = mc_calloc((size_t)p, 1);
    if (g && parent && queue && in && leader >= 0) {
        /* Shortest path from the leader back to itself (BFS over edges). */
        for (int r = 0; r < p; r++)
            parent[r] = -2;
        int head = 0, tail = 0, found = -1;
        for (int w = 0; w < p && found < 0; w++)
            if (!released[w] && mc_wg_waits_for(g, p, leader, w, released)) {
                parent[w] = leader;
                queue[tail++] = w;
                if (w == leader)
                    found = w;
            }
        while (head < tail && found < 0) {
            int u = queue[head++];
            for (int w = 0; w < p; w++) {
                if (released[w] || !mc_wg_waits_for(g, p, u, w, released))
                    continue;
                if (w == leader) {
                    found = u;
                    break;
                }
                if (parent[w] == -2) {
                    parent[w] = u;
                    queue[tail++] = w;
                }
            }
        }
        if (found >= 0) {
            /* found is the last rank before the leader: walk back. */
            int len = 0;
            for (int u = found; u != leader && len < p; u = parent[u])
                queue[len++] = u;
            order[n++] = leader;
            in[leader] = 1;
            for (int i = len - 1; i >= 0; i--)
                if (!in[queue[i]]) {
                    order[n++] = queue[i];
                    in[queue[i]] = 1;
                }
        }
    }
    for (int r = 0; r < p; r++)
        if (!released[r] && !(in && in[r]))
            order[n++] = r;
    free(g);
    free(parent);
    free(queue);
    free(in);
    return n;
}

/* The deadlocked ranks blocked in collectives: on which communicator. */
#define COLL_HINTS 8
typedef struct {
    int n;
    int rank[COLL_HINTS];
    unsigned long long cid[COLL_HINTS];
    char comm[COLL_HINTS][64], call[COLL_HINTS][40];
} coll_hints;

static void coll_hint(coll_hints *h, int rank, const char *hint, const char *call)
{
    const char *p = hint + strlen(MC_DL_COLL_HINT);
    char *end;
    unsigned long long cid = strtoull(p, &end, 16);
    if (h->n >= COLL_HINTS || *end != ':')
        return;
    h->rank[h->n] = rank;
    h->cid[h->n] = cid;
    snprintf(h->comm[h->n], sizeof h->comm[0], "%s", end + 1);
    snprintf(h->call[h->n], sizeof h->call[0], "%s", call ? call : "a collective");
    h->n++;
}

/* Ranks of the cycle blocked in collectives on different communicators:
 * each waits for members that are in the other collective. */
static void coll_cause(const coll_hints *h, char *causes, size_t cap)
{
    int differ = 0;
    for (int i = 1; i < h->n; i++)
        differ |= h->cid[i] != h->cid[0];
    if (!differ)
        return;
    size_t len = strlen(causes);
    for (int i = 0; i < h->n && len < cap; i++) {
        snprintf(causes + len, cap - len, "%srank %d is in %s on %s", i ? ", " : len ? "; " : "",
                 h->rank[i], h->call[i], h->comm[i]);
        len = strlen(causes);
    }
    snprintf(causes + len, cap - len, ": collectives on different communicators, each waiting for "
             "members that are in another: a communicator mismatch?");
}

/* Rank r's waiting threads (one section of details each, answer n's
 * alternatives) into calls[*k...], each described into msg. */
static void unwire_threads(const node *n, const char *details, int r, mc_call_text *calls, size_t *k,
                           char *msg, size_t cap, const node *all)
{
    int nalts = n->alt_len && n->h.nalts > 0 ? n->h.nalts : 1;
    const char *sec = details ? details : "";
    int c0 = 0, k0 = 0;
    for (int a = 0; a < nalts; a++) {
        const char *end = strchr(sec, '\x1e');
        char *one = mc_strndup(sec, end ? (size_t)(end - sec) : strlen(sec));
        mc_call_unwire(one ? one : "", r, &calls[*k]);
        free(one);
        int c1 = nalts > 1 ? c0 + n->alt_len[a] : n->h.nclauses, k1 = k0;
        for (int c = c0; c < c1 && c < n->h.nclauses; c++)
            k1 += n->clause_len && n->clause_len[c] > 0 ? n->clause_len[c] : 0;
        describe_node(msg, cap, all, n, r, &calls[*k], c0, c1, k0);
        (*k)++;
        c0 = c1;
        k0 = k1;
        sec = end ? end + 1 : "";
    }
}

void mc_dl_report_found(node *nodes, node *again, const char *released, int leader, int potential,
                        const mc_call *c)
{
    int p = mc_st.world_size, me = mc_st.world_rank;
    int n = 0, ncalls = 0;
    for (int r = 0; r < p; r++) {
        n += !released[r];
        ncalls += released[r] ? 0 : nodes[r].alt_len && nodes[r].h.nalts > 0 ? nodes[r].h.nalts : 1;
    }
    mc_call_text *calls = mc_calloc((size_t)ncalls, sizeof *calls);
    char *msg = mc_calloc(1, 8192);
    char buffered[1024] = "";   /* potential: the sends MPI buffered */
    char causes[1200] = "";     /* near misses the blocked receivers saw (near_miss.c) */
    coll_hints colls = {0};     /* the communicators of the blocked collectives */
    size_t k = 0;
    int *order = mc_malloc((size_t)p * sizeof *order);
    int norder = order ? cycle_order(nodes, released, leader, order) : 0;
    for (int oi = 0; oi < norder && calls && msg; oi++) {
        int r = order[oi];
        size_t first = k;
        unwire_threads(&nodes[r], again[r].details, r, calls, &k, msg, 8192, nodes);
        if (k == first)
            continue;
        if (again[r].hint && strncmp(again[r].hint, MC_DL_COLL_HINT, strlen(MC_DL_COLL_HINT)) == 0) {
            coll_hint(&colls, r, again[r].hint, calls[first].call);
        } else if (again[r].hint && again[r].hint[0]) {
            size_t len = strlen(causes);
            snprintf(causes + len, sizeof causes - len, "%sat rank %d, %s", len ? "; " : "", r, again[r].hint);
        }
        if (potential && nodes[r].h.relaxable) {
            const mc_call_text *ct = &calls[first];
            int line = 0;
            const char *base = site_of(ct, &line);
            size_t len = strlen(buffered);
            if (base)
                snprintf(buffered + len, sizeof buffered - len, "%srank %d's %s at %s:%d",
                         len ? ", " : "", r, ct->call ? ct->call : "send", base, line);
            else
                snprintf(buffered + len, sizeof buffered - len, "%srank %d's %s", len ? ", " : "",
                         r, ct->call ? ct->call : "send");
        }
    }
    coll_cause(&colls, causes, sizeof causes);
    free(order);
    if (calls && msg)
        write_dot(nodes, released, calls, k, potential);
    /* A rank of several waiting threads: every thread's call stays in the
     * list, each named; the finding has no call of its own. */
    int threads_here = 0;
    for (size_t i = 0; calls && i < k; i++)
        threads_here |= calls[i].rank == me && calls[i].tid > 0;
    int fn = c ? c->fn : MC_FN_MPI_Recv;
    const void *site = c ? c->caller : NULL;
    /* A wait for a call that already returned (a deferred strict send,
     * p2p/stream.c) shows the stack kept with it, as its answer did. */
    mc_dl_wait_state *own = mc_dl_mine();
    if (threads_here || (own && own->preset))
        c = NULL;
    if (calls && msg) {
        /* This rank's own call goes first, with its stack taken here. */
        for (size_t i = 0; i < k && c; i++) {
            if (calls[i].rank == me) {
                mc_finding tmp = {.calls = mc_malloc(sizeof *calls), .ncalls = 1};
                if (tmp.calls) {
                    tmp.calls[0] = calls[i];
                    mc_finding_clear(&tmp);
                }
                /* keep the cycle's order */
                memmove(&calls[i], &calls[i + 1], (k - i - 1) * sizeof *calls);
                k--;
                break;
            }
        }
        /* Leaders (and, for _from_groups, members) of an intercommunicator
         * creation wait for each other in src/inter/'s exchange. */
        const char *icreate = c && (c->fn == MC_FN_MPI_Intercomm_create
                                    || c->fn == MC_FN_MPI_Intercomm_create_from_groups) ? c->desc->name : NULL;
        for (size_t i = 0; i < k && !icreate; i++)
            if (calls[i].call && strncmp(calls[i].call, "MPI_Intercomm_create", 20) == 0)
                icreate = calls[i].call;
        if (potential)
            mc_report_with(MC_CLASS_POTENTIAL_DEADLOCK, c, fn, site, calls, k,
                           "potential deadlock: %d ranks (numbered in MPI_COMM_WORLD) would wait for each other forever if "
                           "MPI did not buffer their standard-mode sends (strict mode: a send "
                           "completes when its receive is posted): %s. The program goes on "
                           "only because MPI buffered %s; with larger messages or another MPI "
                           "it hangs",
                           n, msg, buffered[0] ? buffered : "the sends of the ranks waiting for an acknowledgment");
        else if (icreate)
            /* Leaders of MPI_Intercomm_create that do not name each other
             * wait here in the leaders' exchange (src/inter/create.c). */
            mc_report_with(MC_CLASS_INTERCOMM_MISMATCH, c, fn, site, calls, k,
                           "%s cannot complete: its processes do not name the same leaders (or a process "
                           "it needs is elsewhere), and %d ranks (numbered in MPI_COMM_WORLD) wait for each "
                           "other forever: %s", icreate, n, msg);
        else
            mc_report_with_cause(MC_CLASS_DEADLOCK, c, fn, site, calls, k, causes,
                                 "deadlock: %d ranks (numbered in MPI_COMM_WORLD) wait for each other and can "
                                 "never be released: %s%s%s", n, msg, causes[0] ? ". Likely cause: " : "", causes);
        if (!potential)
            mc_board_deadlock_reported();   /* the launcher's hang watch: already said */
    } else {
        free(calls);
    }
    free(msg);
}
