/*
 * call.c - the two halves every wrapper runs around the real PMPI call.
 */
#include <stdlib.h>
#include "call.h"
#include "checks.h"
#include "objects.h"
#include "state.h"

__thread int mc_depth;
int mc_disabled;

void mc_call_enter(mc_call *c, int fn, mc_value *vals, const void *caller)
{
    mc_depth++;
    c->fn = fn;
    c->desc = &mc_fn_table[fn];
    c->vals = vals;
    c->caller = caller;
    c->nreq_before = 0;
    c->req_before = c->req_inline;
    c->skip = 0;
    if (mc_st.phase != MC_PHASE_RUNNING) {
        /* Before MPI_Init or after MPI_Finalize only call order is checked:
         * nothing else can be queried, and the table is empty or gone. */
        mc_check_call_order(c);
        c->skip = 1;
        return;
    }
    if (fn == MC_FN_MPI_Init || fn == MC_FN_MPI_Init_thread) {
        mc_check_call_order(c);
        c->skip = 1;
        return;
    }
    if (!c->desc->has_roles) {
        c->skip = 1;
        return;
    }
    mc_check_args(c);
    mc_track_pre(c);
}

void mc_call_leave(mc_call *c, int ok)
{
    if (!c->skip && ok)
        mc_track_post(c);
    if (c->req_before != c->req_inline)
        free(c->req_before);
    mc_depth--;
}
