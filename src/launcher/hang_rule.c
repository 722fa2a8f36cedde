/*
 * hang_rule.c - the rule of hang_rule.h.
 */
#include "hang_rule.h"

#include <stdlib.h>
#include <string.h>
#include "board_layout.h"

static int same_job(const mc_hang_rank *a, const char *job)
{
    return strcmp(a->job ? a->job : "", job ? job : "") == 0;
}

/* Whether every rank of job (its world size as its boards say) has a board. */
static int job_complete(const mc_hang_rank *r, size_t n, const char *job)
{
    int size = -1, seen = 0;
    for (size_t i = 0; i < n; i++)
        if (same_job(&r[i], job)) {
            if (r[i].world_size > size)
                size = r[i].world_size;
            seen++;
        }
    return size > 0 && seen >= size;
}

/* A rank in MPI_Comm_spawn waits for a job that may still be starting:
 * stuck only when a parent of the same job names the children's job and
 * all of its processes are there. */
static int spawn_children_there(const mc_hang_rank *r, size_t n, const mc_hang_rank *parent)
{
    int named = 0;
    for (size_t i = 0; i < n; i++) {
        if (!same_job(&r[i], parent->job) || !r[i].spawning || !r[i].spawning[0])
            continue;
        named = 1;
        if (!job_complete(r, n, r[i].spawning))
            return 0;
    }
    return named;
}

int mc_hang_finishing(const mc_hang_rank *r, size_t n)
{
    mc_hang_state *st = malloc(n ? n * sizeof *st : 1);
    if (!st)
        return 0;
    mc_hang_states(r, n, st);
    int stuck = 0, finishing = 1;
    for (size_t i = 0; i < n && finishing; i++) {
        if (st[i] != MC_HANG_STUCK)
            continue;
        stuck = 1;
        finishing = r[i].in_finalize > 0 && r[i].in_finalize == r[i].in_mpi;
    }
    free(st);
    return stuck && finishing;
}

int mc_hang_all_known(const mc_hang_rank *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!job_complete(r, n, r[i].job))
            return 0;
    return n > 0;
}

void mc_hang_states(const mc_hang_rank *r, size_t n, mc_hang_state *out)
{
    for (size_t i = 0; i < n; i++) {
        const mc_hang_rank *x = &r[i];
        if (!x->alive || x->board_state == MC_BOARD_FINALIZED || x->board_state == MC_BOARD_EXITED)
            out[i] = MC_HANG_ENDED;
        else if (x->overflow || x->in_outside_wait > 0 || x->in_mpi < 1
                 || (!x->one_caller && x->in_mpi + x->joining < 1 + x->app_threads))
            out[i] = MC_HANG_FREE;
        else if (x->in_spawn > 0 && !spawn_children_there(r, n, x))
            out[i] = MC_HANG_FREE;
        else
            out[i] = MC_HANG_STUCK;
    }
}

int mc_hang_frozen(const mc_hang_rank *r, size_t n, int *missing, size_t max, size_t *nmissing)
{
    if (nmissing)
        *nmissing = 0;
    if (n == 0)
        return 0;
    mc_hang_state *st = malloc(n * sizeof *st);
    if (!st)
        return 0;
    mc_hang_states(r, n, st);
    int stuck = 0, all_in_init = 1, frozen = 1;
    for (size_t i = 0; i < n; i++) {
        if (st[i] == MC_HANG_FREE)
            frozen = 0;
        if (st[i] == MC_HANG_STUCK)
            stuck = 1;
        if (st[i] != MC_HANG_STUCK || r[i].in_init < r[i].in_mpi)
            all_in_init = 0;
    }
    free(st);
    if (!frozen || !stuck)
        return 0;
    /* Every job whose processes the boards show must be all there. */
    for (size_t i = 0; i < n; i++) {
        if (job_complete(r, n, r[i].job))
            continue;
        /* The first job's ranks that never called MPI_Init while all the
         * others wait inside it: nothing else can release MPI_Init. */
        if (!same_job(&r[i], "") || !all_in_init || r[i].world_size <= 0)
            return 0;
        size_t k = 0;
        for (int rank = 0; rank < r[i].world_size; rank++) {
            int seen = 0;
            for (size_t j = 0; j < n && !seen; j++)
                seen = same_job(&r[j], "") && r[j].rank == rank;
            if (!seen) {
                if (missing && k < max)
                    missing[k] = rank;
                k++;
            }
        }
        if (nmissing)
            *nmissing = k;
        return 1;
    }
    return 1;
}
