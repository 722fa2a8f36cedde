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
 */
#include <stdlib.h>
#include "objects.h"
#include "skipped.h"
#include "report.h"
#include "state.h"

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

/* MPI_Start/MPI_Startall on a persistent request that is still active (its
 * last start not completed) is erroneous (MPI-4.0 sec. 3.9). */
void mc_requests_check_start(mc_call *c)
{
    if (c->fn != MC_FN_MPI_Start && c->fn != MC_FN_MPI_Startall)
        return;
    MC_LOCK();
    for (int k = 0; k < c->nreq_before; k++) {
        mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(c->req_before[k]));
        if (o && o->persistent && o->active) {
            if (c->fn == MC_FN_MPI_Startall)
                mc_report_arg_origin(c, c->desc->req_in, &o->origin, "element %d is a persistent "
                                     "request still active: its last start was not completed "
                                     "(MPI_Wait/MPI_Test) before this one", k);
            else
                mc_report_arg_origin(c, c->desc->req_in, &o->origin, "is a persistent request "
                                     "still active: its last start was not completed "
                                     "(MPI_Wait/MPI_Test) before this one");
            break;
        }
    }
    MC_UNLOCK();
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
            /* The engine may have entered the request already, as part of
             * its record of it (runtime.h): that entry stays. */
            mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(r));
            if (!o || !o->embedded)
                o = mc_obj_add(MC_OBJ_REQUEST, MC_BITS(r), c, 0);
            if (o) {
                o->persistent = (d->flags & MC_FLAG_PERSISTENT) != 0;
                o->active = !o->persistent;
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
        if (now[k] == MPI_REQUEST_NULL) {
            mc_obj_remove(MC_OBJ_REQUEST, MC_BITS(before));
            continue;
        }
        mc_obj *o = ok ? mc_obj_find(MC_OBJ_REQUEST, MC_BITS(before)) : NULL;
        if (!o)
            continue;
        if (starts)
            o->active = 1;
        else if (o->persistent && completed(c, k))
            o->active = 0;
    }
    if (c->req_before != c->req_inline)
        free(c->req_before);
    c->req_before = c->req_inline;
    c->nreq_before = 0;
}
