/*
 * waitgraph.c - the least fixpoint of "can still be released" (waitgraph.h).
 */
#include <stdlib.h>
#include "waitgraph.h"
#include "skipped.h"

/* Did rank s start collective instance key? */
static int started(const mc_wg_node *nodes, int s, uint64_t key)
{
    if (!key || !nodes[s].answered)
        return 0;
    for (int i = 0; i < nodes[s].nstarted; i++)
        if (nodes[s].started[i] == key)
            return 1;
    return 0;
}

static int clause_holds(const mc_wg_node *nodes, int n, int self, int len, const int *ranks,
                        uint64_t key, const char *released)
{
    if (len < 0) {
        /* MPI_Finalize: every rank not yet in MPI_Finalize must still come. */
        for (int s = 0; s < n; s++)
            if (s != self && !(nodes[s].answered && nodes[s].in_finalize) && !released[s])
                return 0;
        return 1;
    }
    for (int j = 0; j < len; j++)
        if (ranks[j] >= 0 && ranks[j] < n && (released[ranks[j]] || started(nodes, ranks[j], key)))
            return 1;
    return 0;
}

void mc_wg_released(const mc_wg_node *nodes, int n, int relax, char *released)
{
    for (int r = 0; r < n; r++) {
        const mc_wg_node *v = &nodes[r];
        released[r] = !v->answered || !v->blocked || v->unknown || (relax && v->relaxable);
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int r = 0; r < n; r++) {
            if (released[r])
                continue;
            const mc_wg_node *v = &nodes[r];
            /* One alternative per blocked thread: the rank moves when one
             * thread's every clause holds. */
            int nalts = v->nalts > 0 && v->alt_len ? v->nalts : 1;
            int c = 0, k = 0, ok = 0;
            for (int a = 0; a < nalts && !ok; a++) {
                int end = v->nalts > 0 && v->alt_len ? c + v->alt_len[a] : v->nclauses;
                if (end > v->nclauses)
                    end = v->nclauses;
                ok = 1;
                for (; c < end; c++) {
                    int len = v->clause_len[c];
                    int take = len < 0 ? 0 : len;
                    if (k + take > v->nranks)
                        take = v->nranks - k;
                    uint64_t key = v->clause_key ? v->clause_key[c] : 0;
                    if (ok)
                        ok = clause_holds(nodes, n, r, len < 0 ? -1 : take, v->ranks + k, key, released);
                    k += take;
                }
            }
            if (ok) {
                released[r] = 1;
                changed = 1;
            }
        }
    }
}

/* Does v wait (directly) for w? */
static int edge(const mc_wg_node *nodes, int n, int v, int w, const char *released)
{
    const mc_wg_node *a = &nodes[v];
    if (released[w])
        return 0;
    int k = 0;
    for (int c = 0; c < a->nclauses; c++) {
        int len = a->clause_len[c];
        if (len < 0) {
            if (w != v && !(nodes[w].answered && nodes[w].in_finalize))
                return 1;
            continue;
        }
        uint64_t key = a->clause_key ? a->clause_key[c] : 0;
        for (int j = 0; j < len && k < a->nranks; j++, k++)
            if (a->ranks[k] == w && !started(nodes, w, key))
                return 1;
    }
    return 0;
}

int mc_wg_waits_for(const mc_wg_node *nodes, int n, int v, int w, const char *released)
{
    if (v < 0 || v >= n || w < 0 || w >= n || v == w)
        return 0;
    return edge(nodes, n, v, w, released);
}

int mc_wg_cycle_leader(const mc_wg_node *nodes, int n, const char *released)
{
    char *seen = mc_malloc((size_t)n);
    int *stack = mc_malloc((size_t)n * sizeof *stack);
    int leader = -1;
    for (int v = 0; v < n && leader < 0 && seen && stack; v++) {
        if (released[v])
            continue;
        /* Is v reachable from itself? */
        for (int i = 0; i < n; i++)
            seen[i] = 0;
        int top = 0;
        for (int w = 0; w < n; w++)
            if (edge(nodes, n, v, w, released) && !seen[w]) {
                seen[w] = 1;
                stack[top++] = w;
            }
        while (top > 0 && !seen[v]) {
            int u = stack[--top];
            for (int w = 0; w < n; w++)
                if (!seen[w] && edge(nodes, n, u, w, released)) {
                    seen[w] = 1;
                    stack[top++] = w;
                }
        }
        if (seen[v])
            leader = v;
    }
    free(seen);
    free(stack);
    return leader;
}
