/*
 * near_miss.c - the likely cause of a deadlock: many deadlocks are a send
 * and a receive that nearly match. A rank blocked in a receive looks, when
 * the detector asks for its details, at the envelopes no receive took on
 * the checker's shadows (MPI_Iprobe: nothing is taken): one from the rank
 * it waits for with another tag, one with its tag from another rank, or
 * one from that rank with its tag on another communicator. The deadlock
 * report quotes what it finds ("rank 0 sent a message with tag 1 on
 * MPI_COMM_WORLD, and this receive waits for tag 2 from it: a tag
 * mismatch?").
 *
 * A rank blocked in a collective says on which communicator (its id);
 * the reporting rank names the mismatch when the deadlocked ranks'
 * collectives are on different ones ("rank 0 is in MPI_Barrier on
 * MPI_COMM_WORLD, rank 1 in MPI_Barrier on comm#2 ...: a communicator
 * mismatch?").
 *
 * Failing those, a persistent send the rank made and never started is
 * named ("this rank made a persistent send to rank 1 ... and never
 * started it: a missing MPI_Start?").
 *
 * A receive whose call names the source, tag and communicator (MPI_Recv,
 * MPI_Probe, MPI_Sendrecv ...) is looked at; for a wait on requests
 * (MPI_Wait of an MPI_Irecv ...), every receive the rank posted whose
 * envelope has not come.
 */
#include <stdio.h>
#include <string.h>
#include "deadlock_internal.h"
#include "objects.h"
#include "stack.h"
#include "state.h"

static int param_of(const mc_call *c, int role)
{
    for (int i = 0; i < c->desc->nparams; i++)
        if (c->desc->params[i].role == role)
            return i;
    return -1;
}

/* Whether an envelope no receive took waits on pc's shadow from source
 * (or any) with tag (or any); its source and tag in *st. */
static int pending(mc_pcomm *pc, int source, int tag, MPI_Status *st)
{
    int flag = 0;
    /* A communicator this rank has not used yet may still hold its copy. */
    if (pc->shadow_state != MC_SHADOW_READY && !mc_pcomm_try_ready(pc))
        return 0;
    if (pc->shadow == MPI_COMM_NULL)
        return 0;
    if (PMPI_Iprobe(source, tag, pc->shadow, &flag, st) != MPI_SUCCESS)
        return 0;
    return flag;
}

/* The near miss of one receive: (comm, src, tag) as the program gave them. */
static int near_miss_for(MPI_Comm comm, int src, int tag, char *out, size_t len)
{
    mc_pcomm *pc = NULL;
    for (mc_pcomm *p = mc_pcomms_all(); p && !pc; p = p->all_next)
        if (p->comm == comm)
            pc = p;
    if (!pc || src == MPI_PROC_NULL)
        return 0;
    char cname[64], other[64];
    mc_pcomm_name(comm, cname, sizeof cname);
    MPI_Status st;
    if (src != MPI_ANY_SOURCE && tag != MPI_ANY_TAG && pending(pc, src, MPI_ANY_TAG, &st)) {
        snprintf(out, len, "rank %d sent a message with tag %d on %s that no receive took, and this "
                 "receive waits for tag %d from it: a tag mismatch?", src, st.MPI_TAG, cname, tag);
        return 1;
    }
    if (src != MPI_ANY_SOURCE && pending(pc, MPI_ANY_SOURCE, tag, &st)) {
        snprintf(out, len, "rank %d sent a message with tag %d on %s that no receive took, and this "
                 "receive waits for rank %d: a source mismatch?", st.MPI_SOURCE, st.MPI_TAG, cname, src);
        return 1;
    }
    /* The same sender, by world rank, on another communicator. */
    int want = src == MPI_ANY_SOURCE ? -1 : mc_pcomm_world_rank(pc, src);
    for (mc_pcomm *p = mc_pcomms_all(); p; p = p->all_next) {
        if (p == pc || !pending(p, MPI_ANY_SOURCE, tag, &st))
            continue;
        int w = mc_pcomm_world_rank(p, st.MPI_SOURCE);
        if (w < 0 || (want >= 0 && w != want))
            continue;
        mc_pcomm_name(p->comm, other, sizeof other);
        snprintf(out, len, "world rank %d sent a message with tag %d on %s that no receive took, and this "
                 "receive waits on %s: a communicator mismatch?", w, st.MPI_TAG, other, cname);
        return 1;
    }
    return 0;
}

/* A persistent send this rank made and never started (MPI_Send_init and
 * its siblings without MPI_Start): the message its peer may be waiting
 * for. The first one found, copied out of the table. */
typedef struct {
    int found;
    mc_origin origin;
} unstarted_ctx;

static int origin_param(const mc_origin *o, int role)
{
    const mc_fn_desc *d = &mc_fn_table[o->fn];
    for (int i = 0; i < d->nparams && i < o->nvals; i++)
        if (d->params[i].role == role)
            return i;
    return -1;
}

static void unstarted_send(mc_obj *o, void *arg)
{
    unstarted_ctx *u = arg;
    if (u->found || !o->persistent || o->starts > 0 || o->origin.fn < 0 || o->origin.fn >= MC_FN_COUNT_
        || origin_param(&o->origin, MC_ROLE_DEST) < 0)
        return;
    u->found = 1;
    u->origin = o->origin;
}

/* Names the un-started send (the table lock is not held: naming the
 * communicator may take the engine's, which comes first). */
static void unstarted_hint(const mc_origin *g, char *out, size_t len)
{
    int id = origin_param(g, MC_ROLE_DEST), it = origin_param(g, MC_ROLE_STAG),
        ic = origin_param(g, MC_ROLE_COMM);
    if (id < 0 || it < 0 || ic < 0 || g->vals[id].i == MPI_PROC_NULL)
        return;
    char cname[64], site[160] = "";
    mc_pcomm_name(g->vals[ic].comm, cname, sizeof cname);
    if (g->npcs > 0) {
        mc_frame fr;
        uintptr_t pc = g->pcs[0];
        mc_stack_resolve(&pc, 1, &fr);
        const char *base = fr.file ? strrchr(fr.file, '/') : NULL;
        base = base ? base + 1 : fr.file;
        if (base)
            snprintf(site, sizeof site, " at %s:%d", base, fr.line);
        mc_frames_free(&fr, 1);
    }
    snprintf(out, len, "this rank made a persistent send to rank %d with tag %d on %s (%s%s) and never "
             "started it: a missing MPI_Start?", g->vals[id].i, g->vals[it].i, cname,
             mc_fn_table[g->fn].name, site);
}

void mc_dl_near_miss(const mc_call *c, char *out, size_t len)
{
    out[0] = 0;
    if (!c || !c->vals)
        return;
    int is = param_of(c, MC_ROLE_SOURCE), it = param_of(c, MC_ROLE_RTAG), ic = param_of(c, MC_ROLE_COMM);
    /* A blocking collective: which communicator, for the reporting rank to
     * compare with the others' (deadlock_report.c). */
    if (c->coll_key && ic >= 0) {
        for (mc_pcomm *p = mc_pcomms_all(); p; p = p->all_next)
            if (p->comm == c->vals[ic].comm) {
                char cname[64];
                mc_pcomm_name(p->comm, cname, sizeof cname);
                snprintf(out, len, MC_DL_COLL_HINT "%016llx:%s", (unsigned long long)p->cid, cname);
                return;
            }
        return;
    }
    if (is >= 0 && it >= 0 && ic >= 0) {
        if (near_miss_for(c->vals[ic].comm, c->vals[is].i, c->vals[it].i, out, len))
            return;
    } else {
        /* A wait on requests (MPI_Wait of an MPI_Irecv, ...): the receives
         * this rank has posted whose envelope has not come. */
        int looked = 0;
        for (mc_prec *p = mc_prec_live(); p && looked < 64; p = p->live_next) {
            if (p->kind != MC_PR_RECV || !p->active || p->checked)
                continue;
            looked++;
            if (near_miss_for(p->comm, p->peer, p->tag, out, len))
                return;
        }
    }
    unstarted_ctx u = {0};
    MC_LOCK();
    mc_obj_foreach(MC_OBJ_REQUEST, unstarted_send, &u);
    MC_UNLOCK();
    if (u.found)
        unstarted_hint(&u.origin, out, len);
}
