/*
 * poll.c - MPI_Test, Testany, Testall and Testsome polled on requests the
 * engine holds, none of them complete yet: answered without the checks and
 * the tracking (docs/design.md, "Polls that find nothing"). complete.c
 * makes every other completion call.
 */
#include <string.h>
#include "runtime_internal.h"
#include "objects.h"
#include "state.h"

#define POLL_MAX 32     /* handles a polled call may have; more take the whole path */

/* A poll loop tests the same handles call after call (hpcc's
 * MPIRandomAccess a million times): their records, found by the object
 * table's lookups, are kept while no entry of the table has changed
 * (mc_obj_epoch), so a repeated poll makes no lookup. Used under the
 * engine lock and never under MPI_THREAD_MULTIPLE (mc_eng_test_pending). */
static struct {
    uint64_t epoch;
    int n;
    MPI_Request reqs[POLL_MAX];
    mc_obj *entry[POLL_MAX];
    mc_prec *recs[POLL_MAX];
} seen;

/* The records of the n handles, all held by the engine, or 0. */
static int find_records(const MPI_Request *reqs, int n)
{
    int same = seen.n == n && seen.epoch == mc_obj_epoch;
    for (int i = 0; same && i < n; i++)
        same = seen.reqs[i] == reqs[i];
    if (same)
        return 1;
    seen.n = 0;
    for (int i = 0; i < n; i++)
        if (reqs[i] == MPI_REQUEST_NULL || !(seen.recs[i] = mc_prec_find_entry(reqs[i], &seen.entry[i])))
            return 0;
    memcpy(seen.reqs, reqs, (size_t)n * sizeof *reqs);
    seen.epoch = mc_obj_epoch;
    seen.n = n;
    return 1;
}

/* A loop of MPI_Test (or Testany, Testall, Testsome) that waits for a
 * message (hpcc's MPIRandomAccess polls millions of times) mostly gets "not
 * complete" on requests the engine holds. Then nothing the checker follows
 * changes: the handles are live (no stale or ended handle to report), MPI
 * is not asked to complete anything, and the tracking would only count the
 * tests. So the poll skips the argument checks and the tracking
 * (core/dispatch.c) and does only what every test does here: the engine's
 * service and each record's progress. Taken only when every handle is a
 * held, active record that is not ready; not under MPI_THREAD_MULTIPLE,
 * where the checks also look for two threads completing one request. */
int mc_eng_test_pending(mc_call *c)
{
    MPI_Request *reqs;
    int n, out;     /* out: the flag, index or outcount argument */
    if (c->fn == MC_FN_MPI_Test) {
        reqs = (MPI_Request *)c->vals[0].p;
        n = 1, out = 1;
    } else {
        reqs = (MPI_Request *)c->vals[1].p;
        n = c->vals[0].i;
        out = c->fn == MC_FN_MPI_Testany ? 3 : 2;
        if (c->fn == MC_FN_MPI_Testany && !c->vals[2].p)
            return 0;
    }
    if (!reqs || n <= 0 || n > POLL_MAX || !c->vals[out].p || mc_st.thread_level == MPI_THREAD_MULTIPLE)
        return 0;
    if (!find_records(reqs, n))
        return 0;
    mc_obj **entry = seen.entry;
    mc_prec **recs = seen.recs;
    for (int i = 0; i < n; i++)
        if (recs[i]->persistent && !recs[i]->active)
            return 0;
    mc_eng_service();
    for (int i = 0; i < n; i++) {
        /* A receive still held back after the service (p2p/recv.c: a
         * wildcard one, whose envelope has not come) had its mirror tested
         * by that service a moment ago: "not yet" is the answer, without
         * a second test of the same request (hpcc's MPI_Testany polls of
         * an MPI_ANY_SOURCE receive tested it twice a poll). */
        if (recs[i]->deferred)
            continue;
        if (mc_p2p_hook.prec_progress(recs[i]))
            return 0;
    }
    for (int i = 0; i < n; i++)
        entry[i]->tests++;  /* for the leak report: "tested N times without completing" */
    return 1;
}

/* What a polled call answers (mc_eng_test_pending): nothing completed. */
int mc_eng_polled_answer(mc_call *c)
{
    switch (c->fn) {
    case MC_FN_MPI_Testany:
        *(int *)c->vals[2].p = MPI_UNDEFINED;
        *(int *)c->vals[3].p = 0;
        break;
    case MC_FN_MPI_Testsome:
        *(int *)c->vals[2].p = 0;
        break;
    default:    /* MPI_Test, MPI_Testall */
        *(int *)c->vals[c->fn == MC_FN_MPI_Test ? 1 : 2].p = 0;
        break;
    }
    return MPI_SUCCESS;
}
