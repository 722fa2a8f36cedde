/*
 * neighbor.c - per-edge checks of the neighborhood collectives (MPI-3.1
 * sec. 7.6; MPI-4.0 sec. 8.6).
 *
 * A neighbor collective pairs parts along the edges of the communicator's
 * topology: what process i sends along its k-th out-edge must match, in
 * type signature and size, what the process at the other end receives along
 * the matching in-edge (sec. 7.6: "the type signature associated with
 * sendcount, sendtype at a process must be equal to the type signature
 * associated with recvcount, recvtype at any other process"; the v and w
 * forms per neighbor). Members may legitimately give different counts: a
 * rank with two neighbors and one with four, a Dist_graph whose in- and
 * out-lists differ, MPI_Neighbor_alltoallv counts that differ per edge. So
 * nothing of the data is compared with the min/max reduction of the
 * handshake (only the operation is, in record.c): the parts travel along
 * the topology itself.
 *
 * The twin: when a communicator with a topology is made, the checker makes
 * the same topology over the communicator's shadow (MPI_Cart_create,
 * MPI_Graph_create or MPI_Dist_graph_create_adjacent with the neighbor
 * lists the application's communicator returns, reorder = 0; a
 * MPI_Comm_idup copies the parent's twin), so that the twin has the same
 * ranks, the same neighbors in the same order, and MPI pairs the twin's
 * edges exactly as it pairs the application's (MPI_PROC_NULL neighbors of
 * a non-periodic Cartesian dimension, the two edges between the same pair
 * in a periodic dimension of size 1 or 2, repeated Dist_graph edges).
 *
 * A blocking neighbor collective, after the first reduction says every
 * member called it: each member sends the 32-byte part of each out-edge with
 * MPI_Ineighbor_alltoall on the twin, compares each received part with what
 * it expects on that in-edge, and a second one-field reduction tells
 * everyone (the path of the v-variants, handshake.c). No member receives
 * more than indegree x 32 bytes. Where several edges join the same two
 * processes, only their total bytes are compared (mc_nbr_judge says why).
 * Nonblocking and persistent forms run the first reduction only
 * (handshake.c explains why): their edges are not compared.
 *
 * Cost: one small reduction and one topology constructor on the shadow per
 * topology communicator made, whether or not it ever runs a neighbor
 * collective; an MPI_Comm_idup copies the parent's twin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll_internal.h"
#include "skipped.h"
#include "runtime.h"
#include "state.h"

/* The twin of one topology communicator. */
typedef struct nbr_topo {
    const mc_pcomm *pc;     /* the engine's record of the communicator: the key */
    MPI_Comm twin;
    MPI_Request req;        /* MPI_Comm_idup of the parent's twin, still running */
    int filled;             /* degrees and in-neighbors read from the twin */
    int nin, nout;
    int *src;               /* in-neighbors in neighbor order (MPI_PROC_NULL possible) */
    int *ord;               /* 0 .. nin-1 ordered by src: the edges from one process together */
    struct nbr_topo *next;
} nbr_topo;

static nbr_topo *topos;     /* under the engine lock */

static nbr_topo *find(const mc_pcomm *pc)
{
    for (nbr_topo *t = topos; t; t = t->next)
        if (t->pc == pc)
            return t;
    return NULL;
}

static int *ints(int n)
{
    return mc_malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
}

typedef struct { int src, k; } edge_t;
static int by_src(const void *a, const void *b)
{
    const edge_t *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* The same topology as comm over shadow (the same group, ranks in the same
 * order). Collective over shadow: every member takes the same path, since
 * the kind of topology is the same everywhere and the members first agree
 * (one reduction) that all of them could read it (ok: this member can keep
 * a twin at all). MPI_COMM_NULL when there is no topology or some member
 * could not. */
static MPI_Comm make_twin(MPI_Comm comm, MPI_Comm shadow, int ok)
{
    int topo = MPI_UNDEFINED;
    if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS
        || (topo != MPI_CART && topo != MPI_GRAPH && topo != MPI_DIST_GRAPH))
        return MPI_COMM_NULL;
    int ndims = 0, nnodes = 0, nedges = 0, indeg = 0, outdeg = 0, weighted = 0;
    int *a = NULL, *b = NULL, *d = NULL, *e = NULL;
    switch (topo) {
    case MPI_CART:
        ok = ok && PMPI_Cartdim_get(comm, &ndims) == MPI_SUCCESS && ndims > 0;
        if (ok) {
            a = ints(ndims);    /* dims */
            b = ints(ndims);    /* periods */
            d = ints(ndims);    /* coords */
            ok = a && b && d && PMPI_Cart_get(comm, ndims, a, b, d) == MPI_SUCCESS;
        }
        break;
    case MPI_GRAPH:
        ok = ok && PMPI_Graphdims_get(comm, &nnodes, &nedges) == MPI_SUCCESS;
        if (ok) {
            a = ints(nnodes);   /* index */
            b = ints(nedges);   /* edges */
            ok = a && b && PMPI_Graph_get(comm, nnodes, nedges, a, b) == MPI_SUCCESS;
        }
        break;
    default:
        /* Exactly the degrees as the maxima: MPICH 4.0.2 writes past a
         * zero-degree side when they are larger. */
        ok = ok && PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) == MPI_SUCCESS;
        if (ok) {
            a = ints(indeg);    /* sources */
            b = ints(indeg);    /* their weights (not used) */
            d = ints(outdeg);   /* destinations */
            e = ints(outdeg);
            ok = a && b && d && e
                 && PMPI_Dist_graph_neighbors(comm, indeg, a, b, outdeg, d, e) == MPI_SUCCESS;
        }
        break;
    }
    int all = 0;
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, shadow) != MPI_SUCCESS)
        all = 0;
    MPI_Comm twin = MPI_COMM_NULL;
    int rc = MPI_SUCCESS;
    if (all) {
        switch (topo) {
        case MPI_CART:
            rc = PMPI_Cart_create(shadow, ndims, a, b, 0, &twin);
            break;
        case MPI_GRAPH:
            rc = PMPI_Graph_create(shadow, nnodes, a, b, 0, &twin);
            break;
        default: {
            /* MPI_UNWEIGHTED is a small pointer constant: through a
             * volatile, gcc does not take it for a zero-size array. */
            int *volatile unw = MPI_UNWEIGHTED;
            rc = PMPI_Dist_graph_create_adjacent(shadow, indeg, a, unw, outdeg, d, unw, MPI_INFO_NULL, 0, &twin);
            break;
        }
        }
        if (rc != MPI_SUCCESS)
            twin = MPI_COMM_NULL;
    }
    free(a);
    free(b);
    free(d);
    free(e);
    return twin;
}

/* Degrees and in-neighbors, read from the twin (local calls). */
static int fill(nbr_topo *t)
{
    if (t->filled)
        return t->filled > 0;
    t->filled = -1;
    int topo = MPI_UNDEFINED, rank = 0;
    if (PMPI_Topo_test(t->twin, &topo) != MPI_SUCCESS || PMPI_Comm_rank(t->twin, &rank) != MPI_SUCCESS)
        return 0;
    if (topo == MPI_CART) {
        int ndims = 0;
        if (PMPI_Cartdim_get(t->twin, &ndims) != MPI_SUCCESS || !(t->src = ints(2 * ndims)))
            return 0;
        /* sec. 7.6: for each dimension, the source then the destination of
         * a shift by 1; in- and out-neighbors are the same list. */
        for (int dim = 0; dim < ndims; dim++)
            if (PMPI_Cart_shift(t->twin, dim, 1, &t->src[2 * dim], &t->src[2 * dim + 1]) != MPI_SUCCESS)
                return 0;
        t->nin = t->nout = 2 * ndims;
    } else if (topo == MPI_GRAPH) {
        int n = 0;
        if (PMPI_Graph_neighbors_count(t->twin, rank, &n) != MPI_SUCCESS || !(t->src = ints(n))
            || PMPI_Graph_neighbors(t->twin, rank, n, t->src) != MPI_SUCCESS)
            return 0;
        t->nin = t->nout = n;
    } else if (topo == MPI_DIST_GRAPH) {
        int in = 0, out = 0, w = 0;
        if (PMPI_Dist_graph_neighbors_count(t->twin, &in, &out, &w) != MPI_SUCCESS)
            return 0;
        int *sw = ints(in), *d = ints(out), *dw = ints(out);
        t->src = ints(in);
        int rc = sw && d && dw && t->src
                 && PMPI_Dist_graph_neighbors(t->twin, in, t->src, sw, out, d, dw) == MPI_SUCCESS;
        free(sw);
        free(d);
        free(dw);
        if (!rc)
            return 0;
        t->nin = in;
        t->nout = out;
    } else {
        return 0;
    }
    edge_t *e = mc_malloc((size_t)(t->nin > 0 ? t->nin : 1) * sizeof *e);
    if (!e || !(t->ord = ints(t->nin))) {
        free(e);
        return 0;
    }
    for (int k = 0; k < t->nin; k++)
        e[k] = (edge_t){t->src[k], k};
    qsort(e, (size_t)t->nin, sizeof *e, by_src);
    for (int k = 0; k < t->nin; k++)
        t->ord[k] = e[k].k;
    free(e);
    t->filled = 1;
    return 1;
}

void mc_nbr_comm_created(mc_call *c, mc_pcomm *pc)
{
    if (pc->is_inter || pc->coll_off)
        return;
    /* The record first: a member without one must still take part in
     * what the others do. */
    nbr_topo *t = mc_calloc(1, sizeof *t);
    MPI_Comm twin = MPI_COMM_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    if (c->fn == MC_FN_MPI_Comm_idup || c->fn == MC_FN_MPI_Comm_idup_with_info) {
        /* MPI_Comm_idup: the new handle may not be used yet, but it has the
         * parent's topology; the twin copies the parent's twin, without
         * blocking (every member starts it here, in the same order). */
        mc_eng_lock();
        mc_pcomm *pp = mc_pcomm_get(c->vals[0].comm);
        nbr_topo *pt = pp ? find(pp) : NULL;
        if (pt && pt->req != MPI_REQUEST_NULL)
            PMPI_Wait(&pt->req, MPI_STATUS_IGNORE);
        MPI_Comm ptwin = pt ? pt->twin : MPI_COMM_NULL;
        mc_eng_unlock();
        if (ptwin != MPI_COMM_NULL && !t) {
            /* Started all the same (the others' copies need this member),
             * and left to MPI's progress. */
            static MPI_Comm sink;
            static MPI_Request sink_req;
            PMPI_Comm_idup(ptwin, &sink, &sink_req);
        }
        if (!t || ptwin == MPI_COMM_NULL || PMPI_Comm_idup(ptwin, &twin, &req) != MPI_SUCCESS) {
            free(t);
            return;
        }
    } else {
        twin = make_twin(pc->comm, pc->shadow, t != NULL);
        if (twin == MPI_COMM_NULL) {
            free(t);
            return;
        }
    }
    t->pc = pc;
    t->twin = twin;
    t->req = req;
    mc_eng_lock();
    t->next = topos;
    topos = t;
    mc_eng_unlock();
}

void mc_nbr_comm_freed(mc_pcomm *pc)
{
    for (nbr_topo **pp = &topos; *pp; pp = &(*pp)->next) {
        nbr_topo *t = *pp;
        if (t->pc != pc)
            continue;
        *pp = t->next;
        /* Every member started the idup when the communicator was made. */
        if (t->req != MPI_REQUEST_NULL)
            PMPI_Wait(&t->req, MPI_STATUS_IGNORE);
        if (t->twin != MPI_COMM_NULL)
            PMPI_Comm_free(&t->twin);
        free(t->src);
        free(t->ord);
        free(t);
        return;
    }
}

/* MPI_Finalize: twins of communicators never freed may still be copying
 * (an MPI_Comm_idup never used); every member started them, so they end. */
void mc_nbr_finalize(void)
{
    for (nbr_topo *t = topos; t; t = t->next)
        if (t->req != MPI_REQUEST_NULL)
            PMPI_Wait(&t->req, MPI_STATUS_IGNORE);
}

int mc_nbr_prepare(mc_call *c, hs_t *h, mc_pcomm *pc)
{
    const mc_coll_fn *f = h->f;
    nbr_topo *t = find(pc);
    if (!t || t->twin == MPI_COMM_NULL || c->invalid || f->nbr == MC_NBR_NONE)
        return 0;
    if (t->req != MPI_REQUEST_NULL)     /* every member started it: it completes */
        PMPI_Wait(&t->req, MPI_STATUS_IGNORE);
    if (!fill(t))
        return 0;
    int nin = t->nin, nout = t->nout;
    h->vsend = mc_calloc((size_t)(nout > 0 ? nout : 1), sizeof *h->vsend);
    h->vrecv = mc_calloc((size_t)(nin > 0 ? 2 * nin : 1), sizeof *h->vrecv);   /* received, then expected */
    if (!h->vsend || !h->vrecv) {
        free(h->vsend);
        free(h->vrecv);
        h->vsend = h->vrecv = NULL;
        return 0;
    }
    /* What goes along each out-edge, what each in-edge should bring. Parts
     * of MPI_PROC_NULL neighbors are computed too: MPI moves nothing on
     * those edges, and the received slot stays unreadable (never compared). */
    int sarr = f->nbr == MC_NBR_ALLTOALLV || f->nbr == MC_NBR_ALLTOALLW;
    int rarr = sarr || f->nbr == MC_NBR_ALLGATHERV;
    mc_part s1 = {0, 0, 0, 0}, r1 = {0, 0, 0, 0};
    if (!sarr)
        s1 = mc_part_of(c->vals[f->a_stype].type, mc_arg_count(c, f->a_scount));
    if (!rarr)
        r1 = mc_part_of(c->vals[f->a_rtype].type, mc_arg_count(c, f->a_rcount));
    for (int k = 0; k < nout; k++)
        h->vsend[k] = sarr ? mc_part_of(mc_arg_type_at(f, c, f->a_stype, k), mc_arg_count_at(f, c, f->a_scount, k))
                           : s1;
    for (int k = 0; k < nin; k++)
        h->vrecv[nin + k] = rarr ? mc_part_of(mc_arg_type_at(f, c, f->a_rtype, k),
                                              mc_arg_count_at(f, c, f->a_rcount, k))
                                 : r1;
    h->twin = t->twin;
    h->nin = nin;
    h->nout = nout;
    h->nsrc = t->src;
    h->nord = t->ord;
    return 1;
}

int mc_nbr_start(hs_t *h)
{
    /* One part per edge, in the neighbor collective's own pattern. */
    return PMPI_Ineighbor_alltoall(h->vsend, 4, MPI_INT64_T, h->vrecv, 4, MPI_INT64_T, h->twin, &h->req);
}

/* Whether a process's parts match what this member expects of it: edge by
 * edge when there is one edge between them. With several edges from one
 * process (a periodic Cartesian dimension of size 1 or 2, a Graph or
 * Dist_graph listing an edge twice), which of its sends meets which of the
 * receives is the library's choice, and libraries differ (Open MPI 4.1
 * crosses the two edges of a periodic dimension of size 2 in its blocking
 * neighbor collectives, MPICH 4.0 pairs them in order, and their
 * nonblocking forms may differ again): only the totals are compared there,
 * which no pairing can make agree when they differ. */
void mc_nbr_judge(hs_t *h)
{
    int nin = h->nin;
    if (!h->nord || !h->nsrc)
        return;
    for (int i = 0; i < nin;) {
        int k = h->nord[i], src = h->nsrc[k], j = i + 1;
        while (j < nin && h->nsrc[h->nord[j]] == src)
            j++;
        int first = i;
        i = j;
        if (src == MPI_PROC_NULL)
            continue;       /* MPI moves nothing there; nothing was received */
        if (j - first == 1) {
            mc_part got = h->vrecv[k], want = h->vrecv[nin + k];
            if (!mc_part_differs(got, want))
                continue;
            h->vbad = 1;
            if (!h->vnote[0])
                snprintf(h->vnote, sizeof h->vnote,
                         "expects %lld bytes from in-neighbor %d (rank %d of the communicator), which "
                         "sends %lld bytes along that edge%s",
                         (long long)want.bytes, k, src, (long long)got.bytes,
                         got.bytes == want.bytes ? " of another type signature" : "");
            return;
        }
        long long got = 0, want = 0;
        int readable = 1;
        for (int m = first; m < j; m++) {
            int e = h->nord[m];
            readable &= h->vrecv[e].valid && h->vrecv[nin + e].valid;
            got += h->vrecv[e].bytes;
            want += h->vrecv[nin + e].bytes;
        }
        if (!readable || got == want)
            continue;
        h->vbad = 1;
        if (!h->vnote[0])
            snprintf(h->vnote, sizeof h->vnote,
                     "expects %lld bytes in all from rank %d of the communicator over its %d edges from "
                     "there, which sends %lld bytes along them",
                     want, src, j - first, got);
        return;
    }
}
