/*
 * requests.c - the lifecycle of requests: created (REQ_OUT), started
 * (MPI_Start*), completed (Wait/Test families), freed (MPI_Request_free).
 *
 * RATIONALE: completion is read from what MPI itself did to the handles, not
 * re-derived: a nonpersistent request that completes or is freed has its
 * handle set to MPI_REQUEST_NULL, so comparing the handles before and after
 * the call tells exactly which ones ended, for every completion function
 * alike. Persistent requests keep their handle; for them the completion
 * outputs (flag, index, indices) of the handful of Wait/Test calls say which
 * became inactive.
 *
 * Handles that ended are remembered for a while (mc_requests_ended): a
 * copy of a handle the program still uses after its request ended names a
 * request MPI may have freed or given to another operation.
 */
#include <stdlib.h>
#include "objects.h"
#include "handle_index.h"
#include "skipped.h"
#include "report.h"
#include "state.h"

/* ---- requests that ended ------------------------------------------------ */

/* A ring of the last MC_ENDED_MAX (the oldest goes first), found by handle
 * through a handle index (util/handle_index.h). MPI hands the same handle
 * out again at once, so every message adds and forgets an entry per
 * request: with uthash that was some 400 instructions a message
 * (callgrind, bench/instructions.c), a probe here is a few. */
typedef struct {
    uint64_t bits;
    mc_request_end how;
    int used;               /* in the index */
} ended_req;

#define ENDED_SLOTS (4 * MC_ENDED_MAX)      /* a power of two: a quarter full at most */
static ended_req ended_pool[MC_ENDED_MAX];
static unsigned ended_next;
static mc_hslot ended_slots[ENDED_SLOTS];
static mc_hindex ended_index = {ended_slots, ENDED_SLOTS - 1};
static int nended;

static void ended_forget(uint64_t bits)
{
    int pos = mc_hindex_remove(&ended_index, bits);
    if (pos >= 0) {
        ended_pool[pos].used = 0;
        nended--;
    }
}

static ended_req *ended_find(uint64_t bits)
{
    int pos = nended ? mc_hindex_get(&ended_index, bits) : -1;
    return pos >= 0 ? &ended_pool[pos] : NULL;
}

/* The entry of a request left the table (objects.c): what made it is
 * kept under its handle; the call that ended it comes next (ended_by),
 * when the program's call did. */
void mc_requests_dropped(const mc_obj *o)
{
    uint64_t bits = o->key.bits;
    if (nended)
        ended_forget(bits);
    unsigned pos = ended_next++ % MC_ENDED_MAX;
    ended_req *e = &ended_pool[pos];
    if (e->used)
        ended_forget(e->bits);
    e->bits = bits;
    e->how.fn = -1;
    e->how.caller = NULL;
    e->how.made_fn = o->origin.fn;
    e->how.made_caller = o->origin.npcs > 0 ? (const void *)o->origin.pcs[0] : NULL;
    e->used = mc_hindex_put(&ended_index, bits, pos);  /* never full: 4 slots an entry */
    nended += e->used;
}

static void ended_by(uint64_t bits, const mc_call *c)
{
    ended_req *e = ended_find(bits);
    if (e && e->how.fn < 0) {
        e->how.fn = c->fn;
        e->how.caller = c->caller;
    }
}

/* Handles MPI gave to two live requests at once: shared ones (Open MPI's
 * for operations done at once, nonblocking collectives among them; MPICH's
 * built-in complete requests). Such a handle names no one request, so no
 * use of it is judged. A handful exist; the array is never full in
 * practice, and a full one judges no ended handle at all. */
#define SHARED_MAX 32
static uint64_t shared[SHARED_MAX];
static int nshared;

void mc_requests_shared(uint64_t bits)
{
    if (nshared > SHARED_MAX)
        return;         /* judging is off already */
    for (int i = 0; i < nshared && i < SHARED_MAX; i++)
        if (shared[i] == bits)
            return;
    if (nshared < SHARED_MAX)
        shared[nshared] = bits;
    nshared++;          /* past SHARED_MAX: mc_requests_is_shared says yes to all */
}

int mc_requests_is_shared(MPI_Request r)
{
    uint64_t bits = MC_BITS(r);
    if (nshared > SHARED_MAX)
        return 1;
    for (int i = 0; i < nshared; i++)
        if (shared[i] == bits)
            return 1;
    return 0;
}

int mc_requests_ended(MPI_Request r, mc_request_end *how)
{
    if (!nended || (nshared && mc_requests_is_shared(r)))
        return 0;
    const ended_req *e = ended_find(MC_BITS(r));
    if (!e || e->how.fn < 0)
        return 0;       /* not ended by a call of the program's */
    if (how)
        *how = e->how;
    return 1;
}

void mc_request_started_at(const mc_obj *o, mc_origin *at)
{
    *at = o->origin;
    if (o->persistent && o->start_caller) {
        at->fn = MC_FN_MPI_Start;
        at->nvals = 0;
        at->npcs = 1;
        at->pcs[0] = (uintptr_t)o->start_caller;
    }
}

/* ---- the calls ------------------------------------------------------------ */

void mc_requests_pre(mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    int i = d->req_in;
    c->nreq_before = 0;
    c->req_before = c->req_inline;
    if (i < 0 || !c->vals[i].p)
        return;
    if (d->params[i].role == MC_ROLE_REQ) {
        c->req_inline[0] = *(const MPI_Request *)c->vals[i].p;
        c->nreq_before = 1;
        return;
    }
    int n = c->vals[d->params[i].ref[0]].i;
    if (n <= 0)
        return;
    if (n > MC_SNAP_INLINE) {
        c->req_before = mc_malloc((size_t)n * sizeof(MPI_Request));
        if (!c->req_before) {
            c->req_before = c->req_inline;
            return;
        }
    }
    memcpy(c->req_before, c->vals[i].p, (size_t)n * sizeof(MPI_Request));
    c->nreq_before = n;
}

/* Which of the snapshotted requests did this call complete? (persistent ones
 * only need it: nonpersistent ones show it through MPI_REQUEST_NULL) */
static int completed(const mc_call *c, int k)
{
    const mc_value *v = c->vals;
    switch (c->fn) {
    case MC_FN_MPI_Wait:
    case MC_FN_MPI_Waitall:
        return 1;
    case MC_FN_MPI_Test:
        return v[1].p && *(const int *)v[1].p;
    case MC_FN_MPI_Testall:
        return v[2].p && *(const int *)v[2].p;
    case MC_FN_MPI_Waitany:
        return v[2].p && *(const int *)v[2].p == k;
    case MC_FN_MPI_Testany:
        return v[2].p && v[3].p && *(const int *)v[3].p && *(const int *)v[2].p == k;
    case MC_FN_MPI_Waitsome:
    case MC_FN_MPI_Testsome: {
        const int *outcount = v[2].p, *indices = v[3].p;
        if (!outcount || !indices || *outcount == MPI_UNDEFINED)
            return 0;
        for (int j = 0; j < *outcount; j++)
            if (indices[j] == k)
                return 1;
        return 0;
    }
    default:
        return 0;
    }
}

static void update_snapshotted(mc_call *c, int ok);

void mc_requests_post(mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    int out = d->req_out;
    if (out >= 0 && c->vals[out].p) {
        MPI_Request r = *(const MPI_Request *)c->vals[out].p;
        if (r != MPI_REQUEST_NULL) {
            int persistent = (d->flags & MC_FLAG_PERSISTENT) != 0;
            if (nended)
                ended_forget(MC_BITS(r));
            /* The engine may have entered the request already, as part of
             * its record of it (runtime.h): that entry stays. A live
             * nonpersistent request's handle handed out again is a shared
             * one (Open MPI's for operations done at once, MPICH's
             * built-in complete requests): one more copy, each ended by
             * its own completion. */
            mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(r));
            if (o && !o->embedded && !persistent && !o->persistent && o->active) {
                mc_requests_shared(MC_BITS(r));
                o->copies++;
            } else {
                if (!o || !o->embedded)
                    o = mc_obj_add(MC_OBJ_REQUEST, MC_BITS(r), c, 0);
                if (o) {
                    o->persistent = persistent;
                    o->active = !o->persistent;
                }
            }
        }
    }
    if (c->nreq_before == 0)
        return;
    update_snapshotted(c, 1);
}

void mc_requests_after_error(mc_call *c)
{
    MC_LOCK();
    update_snapshotted(c, 0);
    MC_UNLOCK();
}

/* Compares the snapshotted handles with what the call left: removed when
 * MPI set them to MPI_REQUEST_NULL; with ok, also started or completed
 * persistent requests. */
static void update_snapshotted(mc_call *c, int ok)
{
    const mc_fn_desc *d = c->desc;
    const MPI_Request *now = c->vals[d->req_in].p;
    int starts = c->fn == MC_FN_MPI_Start || c->fn == MC_FN_MPI_Startall;
    for (int k = 0; k < c->nreq_before; k++) {
        MPI_Request before = c->req_before[k];
        if (before == MPI_REQUEST_NULL)
            continue;
        mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(before));
        if (starts && ok && now[k] != before && now[k] != MPI_REQUEST_NULL) {
            /* MPI_Start replaced the handle (its request is INOUT): the
             * engine's record moved already; an entry of our own moves. */
            if (o && !o->embedded)
                mc_obj_rekey(o, MC_BITS(now[k]));
            o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(now[k]));
            if (nended)     /* the value is live again: not a stale copy */
                ended_forget(MC_BITS(now[k]));
        }
        if (now[k] == MPI_REQUEST_NULL) {
            if (o && o->copies > 0 && !o->embedded) {
                o->copies--;
                continue;
            }
            mc_obj_remove(MC_OBJ_REQUEST, MC_BITS(before));
            ended_by(MC_BITS(before), c);
            continue;
        }
        if (!o || !ok)
            continue;
        if (starts) {
            o->active = 1;
            o->starts++;
            o->start_caller = c->caller;
            o->cancelled = 0;
        } else if (c->fn == MC_FN_MPI_Cancel) {
            o->cancelled = o->active;
        } else if (o->persistent && completed(c, k)) {
            o->active = 0;
        } else if (o->active) {
            o->tests++;
        }
    }
    if (c->req_before != c->req_inline)
        free(c->req_before);
    c->req_before = c->req_inline;
    c->nreq_before = 0;
}
