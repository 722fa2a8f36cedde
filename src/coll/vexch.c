/*
 * vexch.c - the second look of a v-variant collective's handshake (and a
 * neighbor collective's, neighbor.c): whether each member's part matches
 * the count its peer gives for it (the root's recvcounts[i] of
 * MPI_Gatherv, the pairs of MPI_Alltoallv/w) is not a min/max question, so
 * after a clean first reduction 32-byte parts travel along the operation's
 * own pattern (MPI_Iscatter from the root, MPI_Ialltoall), each member
 * compares what it got with what it expects, and a second one-field
 * reduction (handshake.c) tells everyone. No member receives more than the
 * collective itself gives it.
 */
#include <stdio.h>
#include <stdlib.h>
#include "coll_internal.h"
#include "runtime.h"
#include "skipped.h"

/* Whether the v-exchange runs: decided from the combined record, so that
 * every member takes the same path. */
int mc_vexch_runs(const hs_t *h)
{
    int64_t lo, hi;
    if (mc_collrec_get(&h->all, MC_CR_NOVEX, &lo, &hi) && hi > 0)
        return 0;
    switch (h->f->shape) {
    case MC_SH_GATHERV: case MC_SH_SCATTERV: case MC_SH_ALLTOALLV: case MC_SH_ALLTOALLW:
        return 1;
    case MC_SH_NEIGHBOR:        /* the parts of each edge (neighbor.c) */
        return h->f->nbr != MC_NBR_NONE;
    default:
        return 0;
    }
}

/* The parts of a v-variant, computed in the call (the arrays belong to the
 * application and may be gone when the exchange runs). */
void mc_vexch_prepare(mc_call *c, hs_t *h)
{
    const mc_coll_fn *f = h->f;
    int n = h->npeers, shape = f->shape;
    if (n <= 0 || !(shape == MC_SH_GATHERV || shape == MC_SH_SCATTERV
                    || shape == MC_SH_ALLTOALLV || shape == MC_SH_ALLTOALLW))
        return;
    /* Every member takes part in the exchange (the path must be the same
     * everywhere); one whose arguments failed the checks sends parts marked
     * unreadable, which are never compared. */
    int readable = !c->invalid;
    const void *sb = f->a_sbuf >= 0 ? c->vals[f->a_sbuf].p : NULL;
    const void *rb = f->a_rbuf >= 0 ? c->vals[f->a_rbuf].p : NULL;
    int is_root = h->inter ? h->root_arg == MPI_ROOT : h->root_arg == h->comm_rank;
    int inactive = h->inter && h->root_arg == MPI_PROC_NULL;
    if (shape == MC_SH_GATHERV || shape == MC_SH_SCATTERV) {
        int gath = shape == MC_SH_GATHERV;
        int cnt = gath ? f->a_rcount : f->a_scount, typ = gath ? f->a_rtype : f->a_stype;
        h->vsend = mc_calloc((size_t)(is_root ? n : 1), sizeof *h->vsend);
        h->vrecv = mc_calloc(1, sizeof *h->vrecv);
        if (!h->vsend || !h->vrecv)
            goto fail;
        if (is_root && readable)
            for (int k = 0; k < n; k++)
                h->vsend[k] = mc_part_of(c->vals[typ].type, mc_arg_count_at(f, c, cnt, k));
        /* This member's own part, compared with what the root sends it. */
        int in_place = h->inter ? 0 : gath ? sb == MPI_IN_PLACE : rb == MPI_IN_PLACE;
        if (readable && !inactive && !(h->inter && is_root) && !(is_root && in_place)) {
            h->vgot = gath ? mc_part_of(c->vals[f->a_stype].type, mc_arg_count(c, f->a_scount))
                           : mc_part_of(c->vals[f->a_rtype].type, mc_arg_count(c, f->a_rcount));
        }
        return;
    }
    /* MPI_Alltoallv / w: what goes to each peer, what each peer should send. */
    h->vsend = mc_calloc((size_t)n, sizeof *h->vsend);
    h->vrecv = mc_calloc((size_t)(2 * n), sizeof *h->vrecv);    /* received, then expected */
    if (!h->vsend || !h->vrecv)
        goto fail;
    int in_place = sb == MPI_IN_PLACE;
    for (int k = 0; k < n && readable; k++) {
        h->vsend[k] = in_place ? mc_part_of(mc_arg_type_at(f, c, f->a_rtype, k), mc_arg_count_at(f, c, f->a_rcount, k))
                               : mc_part_of(mc_arg_type_at(f, c, f->a_stype, k), mc_arg_count_at(f, c, f->a_scount, k));
        h->vrecv[n + k] = mc_part_of(mc_arg_type_at(f, c, f->a_rtype, k), mc_arg_count_at(f, c, f->a_rcount, k));
    }
    return;
fail:
    free(h->vsend);
    free(h->vrecv);
    h->vsend = h->vrecv = NULL;
}

int mc_vexch_start(hs_t *h)
{
    int shape = h->f->shape;
    if (shape == MC_SH_NEIGHBOR)
        return mc_nbr_start(h);
    if (shape == MC_SH_GATHERV || shape == MC_SH_SCATTERV) {
        mc_part got = {0, 0, 0, 0};
        int rc = PMPI_Iscatter(h->vsend, 4, MPI_INT64_T, h->vrecv, 4, MPI_INT64_T, h->root_arg,
                               h->shadow, &h->req);
        (void)got;
        return rc;
    }
    return PMPI_Ialltoall(h->vsend, 4, MPI_INT64_T, h->vrecv, 4, MPI_INT64_T, h->shadow, &h->req);
}

void mc_vexch_judge(hs_t *h)
{
    int shape = h->f->shape;
    if (shape == MC_SH_NEIGHBOR) {
        mc_nbr_judge(h);
        return;
    }
    if (shape == MC_SH_GATHERV || shape == MC_SH_SCATTERV) {
        if (h->vgot.valid && mc_part_differs(h->vgot, h->vrecv[0])) {
            h->vbad = 1;
            mc_part_note(h, h->vgot, h->vrecv[0],
                         shape == MC_SH_GATHERV ? "the root's recvcounts" : "the root's sendcounts");
            if (shape == MC_SH_SCATTERV)    /* "sends" reads wrong for a receiver */
                snprintf(h->vnote, sizeof h->vnote, "receives %lld bytes where the root's sendcounts says %lld bytes%s",
                         (long long)h->vgot.bytes, (long long)h->vrecv[0].bytes,
                         h->vgot.bytes == h->vrecv[0].bytes ? " of another type signature" : "");
        }
        return;
    }
    for (int k = 0; k < h->npeers; k++) {
        if (mc_part_differs(h->vrecv[k], h->vrecv[h->npeers + k])) {
            h->vbad = 1;
            if (!h->vnote[0])
                snprintf(h->vnote, sizeof h->vnote,
                         "expects %lld bytes from rank %d, which sends it %lld bytes%s",
                         (long long)h->vrecv[h->npeers + k].bytes, k, (long long)h->vrecv[k].bytes,
                         h->vrecv[k].bytes == h->vrecv[h->npeers + k].bytes ? " of another type signature" : "");
            break;
        }
    }
}
