/*
 * siteset.h - a small set of call sites (return addresses into the
 * program): where strict mode stopped waiting after a potential deadlock
 * (runtime/deadlock_answer.c), where a held collective's member came late
 * (coll/held.c). Linear: a handful of sites per run.
 */
#ifndef MPICHECK_SITESET_H
#define MPICHECK_SITESET_H

#define MC_SITESET_MAX 64

typedef struct {
    const void *site[MC_SITESET_MAX];
    int n;
} mc_siteset;

static inline int mc_siteset_has(const mc_siteset *ss, const void *site)
{
    for (int i = 0; i < ss->n; i++)
        if (ss->site[i] == site)
            return 1;
    return 0;
}

/* Adds site; 0 when the set is full (the caller decides what that means). */
static inline int mc_siteset_add(mc_siteset *ss, const void *site)
{
    if (mc_siteset_has(ss, site))
        return 1;
    if (ss->n >= MC_SITESET_MAX)
        return 0;
    ss->site[ss->n++] = site;
    return 1;
}

static inline int mc_siteset_full(const mc_siteset *ss)
{
    return ss->n >= MC_SITESET_MAX;
}

#endif
