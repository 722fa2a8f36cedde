/*
 * waitfor.c - what a blocked call waits for (mc_waitfor: an AND of
 * OR-clauses of world ranks), as the wait loop's describe callbacks build
 * it for the deadlock detector (deadlock.c asks, waitgraph.c decides).
 */
#include <stdlib.h>
#include <string.h>
#include "runtime_internal.h"
#include "skipped.h"

static void wf_push(mc_waitfor *w, int v)
{
    if (w->nranks == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        int *r = mc_realloc(w->ranks, (size_t)cap * sizeof *r);
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
    int *l = mc_realloc(w->clause_len, (size_t)(w->nclauses + 1) * sizeof *l);
    if (!l)
        return;
    w->clause_len = l;
    uint64_t *k = mc_realloc(w->clause_key, (size_t)(w->nclauses + 1) * sizeof *k);
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
    /* No clause (the checker's memory ran out): what it waits for is not
     * known, and an unknown wait is never blamed. */
    if (world_rank < 0 || !w->nclauses) {
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
