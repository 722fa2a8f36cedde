/*
 * bufoverlap.c - buffer-overlap in one collective call: a byte of the data
 * this member sends is also a byte MPI writes for it, without MPI_IN_PLACE
 * (MPI_Alltoall(buf, ..., buf + 1, ...), an MPI_Allgatherv whose receive
 * blocks cover the send buffer, ...).
 *
 * "Unless specified otherwise, an argument of type OUT or type INOUT cannot
 * be aliased with any other argument passed to an MPI procedure" (MPI-4.0
 * sec. 2.3); MPI_IN_PLACE is how a collective says that send and receive
 * share memory. The result of an aliased call depends on the order in which
 * MPI copies, which changes with the algorithm it picks for the message
 * size and the number of processes.
 *
 * sendbuf and recvbuf at one address are reported even when the datatypes
 * keep their data apart: MPICH refuses equal pointers in some collectives,
 * and Open MPI's nonblocking collectives (libnbc) take them for
 * MPI_IN_PLACE and deliver wrong data.
 *
 * RATIONALE: the parts are the whole ones (parts.c: group size x count
 * elements, every block of a v-variant), not the first block that the
 * argument roles give, so an overlap in the tenth block is found. Bytes
 * are compared through the type maps (match/bufsum.c), so interleaved
 * datatypes do not overlap. Receive blocks are sorted by address and each
 * send block looks only at those whose range meets its own, so a correct
 * v-variant of n blocks per side costs O(n log n), not n x n comparisons.
 */
#include <stdlib.h>
#include <string.h>
#include "coll_internal.h"
#include "bufsum.h"
#include "report.h"
#include "skipped.h"

/* The blocks of one side. Most collectives have one block a side: those
 * stay inline, and only a v-variant's list is allocated. */
#define INLINE_BLOCKS 2
typedef struct {
    mc_region *r;
    int n, cap, bad;
    mc_region inl[INLINE_BLOCKS];
} regions;

static void add(void *ctx, const void *buf, MPI_Count count, MPI_Datatype t)
{
    regions *rs = ctx;
    if (rs->bad || count <= 0)
        return;
    if (!rs->r) {
        rs->r = rs->inl;
        rs->cap = INLINE_BLOCKS;
    }
    if (rs->n == rs->cap) {
        int cap = 2 * rs->cap;
        mc_region *nr = mc_malloc((size_t)cap * sizeof *nr);
        if (!nr) {
            rs->bad = 1;
            return;
        }
        memcpy(nr, rs->r, (size_t)rs->n * sizeof *nr);
        if (rs->r != rs->inl)
            free(rs->r);
        rs->r = nr;
        rs->cap = cap;
    }
    if (mc_region_of(buf, count, t, &rs->r[rs->n]))
        rs->n++;
}

static void regions_free(regions *rs)
{
    if (rs->r != rs->inl)
        free(rs->r);
}

static int by_lo(const void *a, const void *b)
{
    const mc_region *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The first pair (send block, receive block) with data in common: 1 and
 * *bytes, or 0 (also when memory runs out: nothing is reported then). */
static int first_overlap(regions *s, regions *r, MPI_Aint *bytes)
{
    if (s->n == 1 && r->n == 1)
        return mc_region_overlap(&s->r[0], &r->r[0], bytes) == 1;
    qsort(r->r, (size_t)r->n, sizeof *r->r, by_lo);
    /* reach[j]: the highest end of receive blocks 0..j. The receive blocks
     * a send block [lo, hi) can share bytes with start below hi (a prefix,
     * found by bisection) and end above lo: walking that prefix backwards
     * stops where no earlier block reaches lo. */
    MPI_Aint *reach = mc_malloc((size_t)r->n * sizeof *reach);
    if (!reach)
        return 0;
    for (int j = 0; j < r->n; j++)
        reach[j] = j && reach[j - 1] > r->r[j].hi ? reach[j - 1] : r->r[j].hi;
    int found = 0;
    for (int i = 0; i < s->n && !found; i++) {
        const mc_region *a = &s->r[i];
        int lo = 0, hi = r->n;      /* first receive block starting at or after a->hi */
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (r->r[mid].lo < a->hi)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int j = lo - 1; j >= 0 && reach[j] > a->lo && !found; j--)
            found = r->r[j].hi > a->lo && mc_region_overlap(a, &r->r[j], bytes) == 1;
    }
    free(reach);
    return found;
}

void mc_coll_check_overlap(mc_call *c, const mc_coll_fn *f, MPI_Comm comm)
{
    if (c->invalid || f->nbr || f->a_sbuf < 0 || f->a_rbuf < 0)
        return;
    mc_member m;
    if (mc_member_of(c, f, comm, &m) != 0)
        return;
    regions s = {0}, r = {0};
    if (mc_coll_part(c, f, &m, MC_PART_SEND, add, &s) == 0 && !s.bad && s.n > 0
        && mc_coll_part(c, f, &m, MC_PART_RECV, add, &r) == 0 && !r.bad && r.n > 0) {
        MPI_Aint bytes = 0;
        const mc_fn_desc *d = c->desc;
        int sa = f->a_sbuf, ra = f->a_rbuf;
        if (c->vals[sa].p == c->vals[ra].p) {
            mc_report_call(MC_CLASS_BUFFER_OVERLAP, c, "%s and %s of %s are the same address "
                           "without MPI_IN_PLACE: MPI libraries take that for aliasing "
                           "whatever the datatypes select (MPICH refuses it in some collectives, "
                           "Open MPI's nonblocking ones run it as MPI_IN_PLACE and leave wrong "
                           "data); MPI-4.0 sec. 2.3: an output argument may not be aliased with "
                           "any other argument", d->params[sa].name, d->params[ra].name, d->name);
        } else if (first_overlap(&s, &r, &bytes)) {
            mc_report_call(MC_CLASS_BUFFER_OVERLAP, c, "the data this rank sends (argument %d, %s) "
                           "and the data it receives (argument %d, %s) of %s overlap (%lld bytes "
                           "in common): MPI may read one while it writes the other, and the "
                           "result depends on the order it copies in (MPI-4.0 sec. 2.3: an output "
                           "argument may not be aliased with any other argument; collectives take "
                           "MPI_IN_PLACE for that)", sa + 1, d->params[sa].name, ra + 1,
                           d->params[ra].name, d->name, (long long)bytes);
        }
    }
    regions_free(&s);
    regions_free(&r);
}
