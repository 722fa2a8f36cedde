/*
 * syncdeps.c - the dependency set D of strict mode's model of synchronous
 * sends (syncmodel.c has the model and its messages; docs/design.md,
 * "Sends let go without their acknowledgment"): the entries, their
 * acknowledgments, what is told to whom, and the receives matched lately,
 * against which a dependency that comes late is checked. Engine lock held
 * throughout.
 */
#include <string.h>
#include "p2p_internal.h"
#include "syncmodel.h"
#include "state.h"

#define DEP_MATCHED 64      /* recent matched receives, for dependencies that come late */
#define DEP_QUICK_S 0.01    /* a send let go without waiting is told to third ranks only this late */

mc_dep_entry mc_deps[MC_DEP_MAX];
int mc_ndeps;
uint64_t mc_dep_events;
static mc_dep_matched matched[DEP_MATCHED];
static int nmatched, matched_next;

mc_dep_matched *mc_dep_match_slot(void)
{
    mc_dep_matched *m = &matched[matched_next];
    matched_next = (matched_next + 1) % DEP_MATCHED;
    if (nmatched < DEP_MATCHED)
        nmatched++;
    return m;
}

int mc_dep_same(mc_dep_id a, mc_dep_id b)
{
    return a.rank == b.rank && a.serial == b.serial;
}

mc_dep_entry *mc_dep_find(mc_dep_id id)
{
    for (int i = 0; i < mc_ndeps; i++)
        if (mc_dep_same(mc_deps[i].id, id))
            return &mc_deps[i];
    return NULL;
}

void mc_dep_remove(int i)
{
    mc_deps[i] = mc_deps[--mc_ndeps];
}

/* An entry that can go: learned, or own and acknowledged. */
static int evictable(const mc_dep_entry *d)
{
    return !d->own || d->acked_at;
}

/* Room for one more entry: the oldest evictable one goes (a miss at most). */
mc_dep_entry *mc_dep_add(void)
{
    if (mc_ndeps == MC_DEP_MAX) {
        int oldest = -1;
        for (int i = 0; i < mc_ndeps; i++)
            if (evictable(&mc_deps[i]) && (oldest < 0 || mc_deps[i].since < mc_deps[oldest].since))
                oldest = i;
        if (oldest < 0)
            return NULL;
        mc_dep_remove(oldest);
    }
    mc_dep_entry *d = &mc_deps[mc_ndeps++];
    memset(d, 0, sizeof *d);
    d->since = mc_eng_now();
    return d;
}

/* A receive of this rank's among the last matched that took send id. */
static const mc_dep_matched *received_here(mc_dep_id id)
{
    for (int k = 0; k < nmatched; k++)
        if (mc_dep_same(matched[k].id, id))
            return &matched[k];
    return NULL;
}

/* The acknowledgment of an own entry's send was seen now. It says when
 * the send was received in real time, not in the model: a receive this
 * rank posted before it may still have been posted, in the model, while
 * the send was not received (the receive that took it may be the one
 * closing the cycle), so the entry stays for the receives posted and the
 * sends started until now, and no later one. A send let go without
 * waiting (quick) goes at once: such sends are many (a call site that
 * no longer waits), and each is mostly received within milliseconds;
 * a miss at most. */
void mc_dep_seen_acked(int i)
{
    if (mc_deps[i].quick)
        mc_dep_remove(i);
    else if (!mc_deps[i].acked_at) {
        mc_deps[i].acked_at = mc_dep_events;
        mc_deps[i].since = mc_eng_now();
    }
}

/* Before D is told: own entries whose envelope a mirror took since (MPI is
 * asked; nothing else runs). */
void mc_dep_prune_acked(void)
{
    for (int i = 0; i < mc_ndeps;) {
        mc_dep_entry *d = &mc_deps[i];
        int n = mc_ndeps;
        if (d->own && !d->acked_at && (d->slot->gen != d->gen || mc_env_slot_matched(d->slot))) {
            if (d->slot->gen == d->gen)
                d->slot->dep_own = 0;
            mc_dep_seen_acked(i);
        }
        if (mc_ndeps == n)
            i++;
    }
}

/* Whether d was in D at event e (a receive's posting, a send's start). */
int mc_dep_in_at(const mc_dep_entry *d, uint64_t e)
{
    return d->from < e && (!d->acked_at || d->acked_at >= e);
}

/* Entry di (new, or with an earlier point) against the receives already
 * matched: one posted after its point that took its send closes a cycle. */
void mc_dep_check_matched(int di)
{
    for (int k = 0; k < nmatched; k++) {
        const mc_dep_matched *m = &matched[k];
        if (mc_dep_same(m->id, mc_deps[di].id) && m->posted > mc_deps[di].from) {
            mc_dep_report(m, &mc_deps[di]);
            mc_dep_remove(di);      /* reported once */
            return;
        }
    }
}

/* What a rank told: ids, which this rank depends on from its event "from"
 * on, through send and via (syncmodel.h). */
void mc_dep_learn(const mc_dep_id *ids, int n, uint64_t from, int kind, const mc_dep_call *send,
                  const mc_dep_call *via)
{
    for (int i = 0; i < n && i < MC_DEP_WIRE; i++) {
        mc_dep_entry *d = mc_dep_find(ids[i]);
        /* Of this rank's own sends only those still let go count: the
         * others were received (or never let go, so received before they
         * completed). */
        if (ids[i].rank == mc_st.world_rank && (!d || !d->own))
            continue;
        if (d && d->from <= from)
            continue;
        /* Received here before the dependency arose: it closes nothing. */
        const mc_dep_matched *m = d ? NULL : received_here(ids[i]);
        if (m && m->posted <= from)
            continue;
        if (!d && !(d = mc_dep_add()))
            continue;
        d->id = ids[i];
        d->from = from;
        if (!d->own) {
            d->kind = kind;
            d->send = *send;
            d->via = *via;
        }
        mc_dep_check_matched((int)(d - mc_deps));
    }
}

/* Whether d may be told to rank now. A send its call site let go without
 * waiting (the site stopped waiting for good) is mostly received within
 * milliseconds; until then it is told only to its own destination, for
 * which it closes the cycles of two ranks (a rank's sends fanned out to
 * many, let go as they all are, would otherwise tell each rank of all
 * the others'): a miss at most, for a cycle through a third rank that
 * closes within DEP_QUICK_S. */
int mc_dep_may_tell(const mc_dep_entry *d, int rank, double *now)
{
    if (!d->own || !d->quick || d->send.peer == rank)
        return 1;
    if (*now == 0.0)
        *now = mc_eng_now();
    return *now - d->since >= DEP_QUICK_S;
}

int mc_dep_told(int *list, int *n, int rank)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == rank)
            return 1;
    /* Told as many ranks as it keeps: it tells no more (a miss at most). */
    if (*n == MC_DEP_TOLD)
        return 1;
    list[(*n)++] = rank;
    return 0;
}
