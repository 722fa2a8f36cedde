/*
 * waitgraph.c - the least fixpoint of "can still be released" (waitgraph.h).
 */
#include "waitgraph.h"

static int clause_holds(const mc_wg_node *nodes, int n, int self, int len, const int *ranks,
                        const char *released)
{
    if (len < 0) {
        /* MPI_Finalize: every rank not yet in MPI_Finalize must still come. */
        for (int s = 0; s < n; s++)
            if (s != self && !(nodes[s].answered && nodes[s].in_finalize) && !released[s])
                return 0;
        return 1;
    }
    for (int j = 0; j < len; j++)
        if (ranks[j] >= 0 && ranks[j] < n && released[ranks[j]])
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
            int ok = 1, k = 0;
            for (int c = 0; c < v->nclauses && ok; c++) {
                int len = v->clause_len[c];
                int take = len < 0 ? 0 : len;
                if (k + take > v->nranks)
                    take = v->nranks - k;
                ok = clause_holds(nodes, n, r, len < 0 ? -1 : take, v->ranks + k, released);
                k += take;
            }
            if (ok) {
                released[r] = 1;
                changed = 1;
            }
        }
    }
}
