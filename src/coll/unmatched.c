/*
 * unmatched.c - collectives that not every member called, found at
 * MPI_Finalize.
 *
 * MPI requires every member of a communicator to make each collective call
 * on it, in the same order (MPI-4.0 sec. 6.14). A member that skips a
 * nonblocking one does not always stop the others: a non-root's part of
 * MPI_Igather or MPI_Ireduce is sent to the root and its request completes,
 * so the program ends as if nothing were wrong (MPI Bugs Initiative,
 * CallOrdering_Igather_none_nok.c). Its handshake never ends, though: the
 * missing member never sends its record. Once every rank of the job is in
 * MPI_Finalize (engine.c waits for that first) no member can still make
 * the call, so a handshake that does not end while every rank keeps MPI
 * progressing is a collective some member never called.
 *
 * Why "does not end" is decided safely: the ranks agree in rounds (one
 * MPI_Allreduce of the handshakes still running and of those ended so
 * far); every rank serves its handshakes between rounds and the reduction
 * itself makes MPI progress, so a handshake whose members all called it
 * ends within a few rounds (its messages were all sent when its members
 * called it). Only after many rounds in which no handshake anywhere ended
 * are the rest judged; a round limit without that calm judges nothing.
 * Every decision comes from the reduced values, so every rank leaves the
 * loop in the same round. Communicators with processes outside this job's
 * MPI_COMM_WORLD (spawned jobs, connect/accept) are not judged: those
 * processes do not take part in this MPI_Finalize.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "coll_internal.h"
#include "calltext.h"
#include "report.h"
#include "runtime.h"
#include "skipped.h"
#include "state.h"

#define KEYS_PER_RANK 8     /* unmatched instances named per rank */
#define SLOTS (KEYS_PER_RANK + 1)   /* and how many the rank has in all */
#define CALM_ROUNDS 24      /* plus 2 per doubling of the job's size */
#define MAX_ROUNDS 2000     /* about 4 s of 2 ms pauses: then nothing is judged */

/* The world ranks of h's communicator (its flat copy: both groups of an
 * intercommunicator), or NULL when one is outside MPI_COMM_WORLD. */
static int *world_ranks_of(const hs_t *h, MPI_Group world, int *n)
{
    MPI_Group g;
    if (PMPI_Comm_group(h->flat, &g) != MPI_SUCCESS)
        return NULL;
    int size = 0;
    PMPI_Group_size(g, &size);
    int *in = mc_malloc((size_t)(size > 0 ? size : 1) * sizeof *in);
    int *out = mc_malloc((size_t)(size > 0 ? size : 1) * sizeof *out);
    int ok = in && out && size > 0;
    for (int i = 0; ok && i < size; i++)
        in[i] = i;
    if (ok)
        ok = PMPI_Group_translate_ranks(g, size, in, world, out) == MPI_SUCCESS;
    for (int i = 0; ok && i < size; i++)
        ok = out[i] != MPI_UNDEFINED;
    PMPI_Group_free(&g);
    free(in);
    if (!ok) {
        free(out);
        return NULL;
    }
    *n = size;
    return out;
}

/* Queued ones too: what they wait behind is a copy of the shadow that the
 * communicator's collectives start, and once every rank is here and no
 * handshake ends any more, a member that skipped a collective is why. */
static int judged(const hs_t *h)
{
    return h->flat != MPI_COMM_NULL;
}

/* Rounds until no handshake is running anywhere (0) or none ended for a
 * while (1), or the limit (0). The same answer on every rank. */
static int agree_stuck(void)
{
    int calm_needed = CALM_ROUNDS;
    for (int s = 1; s < mc_st.world_size; s *= 2)
        calm_needed += 2;
    long long last_ended = -1;
    int calm = 0;
    for (int round = 0; round < MAX_ROUNDS; round++) {
        mc_coll_service();
        long long mine[2] = {0, mc_hs_nended}, all[2] = {0, 0};
        for (hs_t *h = mc_hs_pending(); h; h = h->next)
            mine[0]++;
        if (PMPI_Allreduce(mine, all, 2, MPI_LONG_LONG, MPI_SUM, mc_st.world_dup) != MPI_SUCCESS)
            return 0;
        if (all[0] == 0)
            return 0;
        calm = all[1] == last_ended ? calm + 1 : 0;
        last_ended = all[1];
        if (calm >= calm_needed)
            return 1;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void add_call(mc_call_text *t, size_t *n, int rank, const char *call)
{
    memset(&t[*n], 0, sizeof t[*n]);
    t[*n].rank = rank;
    t[*n].call = mc_strdup(call);
    snprintf(t[*n].job, sizeof t[*n].job, "%s", mc_st.job);
    (*n)++;
}

/* "0, 2, 5" into buf. */
static void rank_list(char *buf, size_t cap, const int *r, int n)
{
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        size_t len = strlen(buf);
        if (len + 16 >= cap) {
            snprintf(buf + len, cap - len, ", ...");
            return;
        }
        snprintf(buf + len, cap - len, "%s%d", i ? ", " : "", r[i]);
    }
}

/* One finding for h, from the lowest world rank that called it: which
 * members called it (all[] holds every rank's first KEYS_PER_RANK
 * unmatched keys and its count) and which did not. A member whose list was
 * full and lacks the key may have called it: it is named neither way. */
static void report(hs_t *h, const uint64_t *all, MPI_Group world)
{
    int n = 0;
    int *members = world_ranks_of(h, world, &n);
    if (!members)
        return;
    int *called = mc_malloc((size_t)n * sizeof *called), *missing = mc_malloc((size_t)n * sizeof *missing);
    mc_call_text *calls = mc_calloc((size_t)n, sizeof *calls);
    int ncalled = 0, nmissing = 0;
    int unknown = 0;
    for (int i = 0; called && missing && calls && i < n; i++) {
        const uint64_t *theirs = &all[(size_t)members[i] * SLOTS];
        int has = 0;
        for (int k = 0; k < KEYS_PER_RANK && !has; k++)
            has = theirs[k] == h->key;
        if (has)
            called[ncalled++] = members[i];
        else if (theirs[KEYS_PER_RANK] > KEYS_PER_RANK)
            unknown++;      /* its list was full: it may have called it */
        else
            missing[nmissing++] = members[i];
    }
    /* Sorted by world rank, so the lowest caller reports. */
    for (int i = 1; i < ncalled; i++)
        for (int j = i; j > 0 && called[j - 1] > called[j]; j--) {
            int t = called[j]; called[j] = called[j - 1]; called[j - 1] = t;
        }
    for (int i = 1; i < nmissing; i++)
        for (int j = i; j > 0 && missing[j - 1] > missing[j]; j--) {
            int t = missing[j]; missing[j] = missing[j - 1]; missing[j - 1] = t;
        }
    if (called && missing && calls && nmissing + unknown > 0 && ncalled > 0
        && called[0] == mc_st.world_rank) {
        size_t nc = 0;
        mc_report_fill_origin(&calls[nc], &h->origin);
        calls[nc].rank = mc_st.world_rank;
        snprintf(calls[nc].job, sizeof calls[nc].job, "%s", mc_st.job);
        nc++;
        char fname[64];
        size_t flen = strcspn(h->summary, "(");
        if (flen >= sizeof fname)
            flen = sizeof fname - 1;
        memcpy(fname, h->summary, flen);
        fname[flen] = '\0';
        for (int i = 1; i < ncalled; i++)
            add_call(calls, &nc, called[i], fname);
        for (int i = 0; i < nmissing; i++)
            add_call(calls, &nc, missing[i], "MPI_Finalize");
        char cname[64], who[256], absent[256];
        mc_pcomm_name(h->comm, cname, sizeof cname);
        rank_list(who, sizeof who, called, ncalled);
        rank_list(absent, sizeof absent, missing, nmissing);
        if (nmissing == 0)      /* only members whose lists were full: which of them, unknown */
            snprintf(absent, sizeof absent, "(one of %d with more such collectives than were "
                     "gathered)", unknown);
        mc_report_with(MC_CLASS_COLLECTIVE_MISMATCH, NULL, h->fn, h->caller, calls, nc,
                       "collective call never matched: %s %s called %s on %s (%d members), and "
                       "%s %s reached MPI_Finalize without making that collective call; every "
                       "member of a communicator must make each collective call on it, in the "
                       "same order (MPI completed the call at the %s that made it without the "
                       "others, which MPI does not promise)",
                       ncalled > 1 ? "ranks" : "rank", who, h->summary, cname, n,
                       nmissing > 1 ? "ranks" : "rank", absent, ncalled > 1 ? "ranks" : "rank");
    }
    free(calls);    /* the report took what its entries point to */
    free(called);
    free(missing);
    free(members);
}

void mc_coll_unmatched(void)
{
    if (mc_st.world_dup == MPI_COMM_NULL || !agree_stuck())
        return;
    uint64_t mine[SLOTS] = {0};
    int n = 0;
    for (hs_t *h = mc_hs_pending(); h; h = h->next)
        if (judged(h) && n++ < KEYS_PER_RANK)
            mine[n - 1] = h->key;
    mine[KEYS_PER_RANK] = (uint64_t)n;
    uint64_t *all = mc_calloc((size_t)mc_st.world_size * SLOTS, sizeof *all);
    /* Every rank takes part in the gather, or none does. */
    int have = all != NULL, every = 0;
    int ok = PMPI_Allreduce(&have, &every, 1, MPI_INT, MPI_MIN, mc_st.world_dup) == MPI_SUCCESS && every
             && PMPI_Allgather(mine, SLOTS, MPI_UINT64_T, all, SLOTS, MPI_UINT64_T,
                               mc_st.world_dup) == MPI_SUCCESS;
    MPI_Group world = MPI_GROUP_NULL;
    if (ok)
        ok = PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS;
    n = 0;
    for (hs_t *h = mc_hs_pending(); ok && h && n < KEYS_PER_RANK; h = h->next)
        if (judged(h)) {
            n++;
            report(h, all, world);
        }
    if (world != MPI_GROUP_NULL)
        PMPI_Group_free(&world);
    free(all);
}
