/*
 * bufwatch.c - buffer-modified: the send buffer of an active send changed
 * before the send completed.
 *
 * "The sender should not modify any part of the send buffer after a
 * nonblocking send operation is called, until the send completes"
 * (MPI-4.0 sec. 3.7.2); MPI may read the buffer at any moment until then,
 * so what the receiver gets is the old content, the new one, or a mix.
 * A program that frees the request (MPI_Request_free) must still leave the
 * buffer alone until MPI is done with it, which it cannot know (seed 000:
 * a reply from the receiver is no proof).
 *
 * How: the checksum of the bytes the datatype covers (match/bufsum.c) is
 * taken when a nonblocking send (MPI_Isend and its modes) or a persistent
 * send's MPI_Start starts, and again when the program's completion call
 * completes it, or, for a freed request, when the engine sees MPI finish
 * it. Turned off with --check-buffers=no.
 */
#include <stdlib.h>
#include "runtime_internal.h"
#include "bufsum.h"
#include "objects.h"
#include "report.h"
#include "state.h"

void mc_bufwatch_start(mc_prec *p, const void *buf, MPI_Count count, MPI_Datatype type)
{
    p->bufsum_on = 0;
    if (!mc_st.cfg.check_buffers || count <= 0)
        return;
    p->buf = (void *)buf;
    p->count = count;
    p->type = type;
    p->bufsum_on = mc_bufsum(buf, count, type, &p->bufsum) == 0;
}

/* Where the send started: its MPI_Start for a persistent request, else the
 * call that made the request. */
static void started_at(const mc_prec *p, mc_origin *at)
{
    *at = p->obj.origin;
    if (p->persistent && p->obj.start_caller) {
        at->fn = MC_FN_MPI_Start;
        at->nvals = 0;
        at->npcs = 1;
        at->pcs[0] = (uintptr_t)p->obj.start_caller;
    }
}

/* 1 when the buffer changed (the watch ends either way). */
static int changed(mc_prec *p, MPI_Count *bytes)
{
    if (!p->bufsum_on)
        return 0;
    p->bufsum_on = 0;
    uint64_t now;
    if (p->type == MPI_DATATYPE_NULL || mc_bufsum(p->buf, p->count, p->type, &now) != 0)
        return 0;
    *bytes = mc_bufsum_bytes(p->count, p->type);
    return now != p->bufsum;
}

static const char *const what =
    "the send buffer of %s (%lld bytes of data at %p) changed between the start of the send "
    "and its completion%s. MPI may have sent the old content, the new one or a mix of both "
    "(MPI-4.0 sec. 3.7.2: the buffer of a nonblocking send must not be modified until the "
    "send completes)";

void mc_bufwatch_end(mc_prec *p, const mc_call *c)
{
    MPI_Count bytes = 0;
    if (!changed(p, &bytes))
        return;
    mc_origin at;
    started_at(p, &at);
    mc_report_call_origin(MC_CLASS_BUFFER_MODIFIED, c, &at, what, mc_fn_table[p->fn].name,
                          (long long)bytes, p->buf, " (completed here)");
}

void mc_bufwatch_end_freed(mc_prec *p)
{
    MPI_Count bytes = 0;
    if (!changed(p, &bytes))
        return;
    mc_origin at, freed = {.fn = MC_FN_MPI_Request_free, .npcs = 1};
    started_at(p, &at);
    freed.pcs[0] = (uintptr_t)p->freed_caller;
    mc_call_text calls[2];
    mc_report_fill_origin(&calls[0], &at);
    mc_report_fill_origin(&calls[1], &freed);
    calls[0].rank = calls[1].rank = mc_st.world_rank;
    mc_report_with(MC_CLASS_BUFFER_MODIFIED, NULL, p->fn, p->caller, calls, 2, what,
                   mc_fn_table[p->fn].name, (long long)bytes, p->buf,
                   " (its request freed with MPI_Request_free: the program cannot know when MPI "
                   "is done with the buffer, and a reply from the receiver is no proof)");
}
