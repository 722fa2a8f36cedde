/*
 * overlap.c - buffer-overlap within one call: two buffer arguments whose
 * data bytes overlap, such as MPI_Sendrecv's send and receive buffers, or a
 * collective's, passed without MPI_IN_PLACE.
 *
 * "Unless specified otherwise, an argument of type OUT or type INOUT cannot
 * be aliased with any other argument passed to an MPI procedure" (MPI-4.0
 * sec. 2.3); MPI_IN_PLACE is how a collective says send and receive are the
 * same memory. MPI libraries check little of it (MPICH refuses equal
 * pointers in some collectives), and an overlap makes a result that depends
 * on the order MPI copies in.
 *
 * RATIONALE: only buffers whose region one (count, datatype) pair gives are
 * compared (SBUF, RBUF: MPI_Sendrecv, MPI_Isendrecv, MPI_Reduce_local).
 * Collectives are left to src/coll/bufoverlap.c, which knows their whole
 * parts (group size x count elements, every block of a v-variant), where
 * the roles give only the first block. Bytes are compared through the type
 * maps (match/bufsum.c): a send of the even elements of an array and a
 * receive into its odd ones do not overlap.
 */
#include "checks.h"
#include "bufsum.h"
#include "report.h"

static int region_role(int role)
{
    return role == MC_ROLE_SBUF || role == MC_ROLE_RBUF || role == MC_ROLE_ROOTBUF
           || role == MC_ROLE_LEAFBUF;
}

#define OVERLAP_ROLES (MC_ROLE_BIT(MC_ROLE_SBUF) | MC_ROLE_BIT(MC_ROLE_RBUF) \
    | MC_ROLE_BIT(MC_ROLE_ROOTBUF) | MC_ROLE_BIT(MC_ROLE_LEAFBUF))

/* Whether the peer of a send (SBUF) or receive (RBUF) buffer is
 * MPI_PROC_NULL: then MPI reads nothing from it, or leaves it unmodified
 * (MPI-4.0 sec. 3.11), and it shares no data with the other buffer.
 * MPI_Sendrecv(x, ..., MPI_PROC_NULL, ..., x, ..., MPI_PROC_NULL, ...) at the
 * edge of a decomposition moves nothing. (A call with several peers of one
 * kind does not exist among these: Sendrecv and Isendrecv have one each.) */
static int peer_is_null(const mc_call *c, int role)
{
    int peer_role = role == MC_ROLE_SBUF ? MC_ROLE_DEST : role == MC_ROLE_RBUF ? MC_ROLE_SOURCE : -1;
    if (peer_role < 0)
        return 0;
    const mc_fn_desc *d = c->desc;
    for (int i = 0; i < d->nparams; i++)
        if (d->params[i].role == peer_role)
            return c->vals[i].i == MPI_PROC_NULL;
    return 0;
}

void mc_check_overlap(mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    if (__builtin_popcountll(d->role_mask & OVERLAP_ROLES) < 2)
        return;
    /* A communicator and no peer: a collective (src/coll/bufoverlap.c). */
    if ((d->role_mask & MC_ROLE_BIT(MC_ROLE_COMM)) && !(d->role_mask & MC_ROLE_BIT(MC_ROLE_DEST)))
        return;
    int idx[4], n = 0;
    mc_region r[4];
    for (int i = 0; i < d->nparams && n < 4; i++) {
        const mc_param_desc *pd = &d->params[i];
        if (!region_role(pd->role) || !mc_check_buffer_significant(c, i) || peer_is_null(c, pd->role))
            continue;
        int ci = pd->ref[0];
        MPI_Count count = d->params[ci].ctype == MC_CT_COUNT ? c->vals[ci].c : c->vals[ci].i;
        if (mc_region_of(c->vals[i].p, count, c->vals[pd->ref[1]].type, &r[n]))
            idx[n++] = i;
    }
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n; b++) {
            MPI_Aint bytes = 0;
            if (mc_region_overlap(&r[a], &r[b], &bytes) != 1)
                continue;
            mc_report_call(MC_CLASS_BUFFER_OVERLAP, c, "argument %d (%s) and argument %d (%s) "
                           "of %s overlap (%lld bytes of data in common): MPI may read one while it "
                           "writes the other, and the result depends on the order it copies in "
                           "(MPI-4.0 sec. 2.3: an output argument may not be aliased with any other "
                           "argument; collectives take MPI_IN_PLACE for that)", idx[a] + 1,
                           d->params[idx[a]].name, idx[b] + 1, d->params[idx[b]].name, d->name,
                           (long long)bytes);
            return;
        }
    }
}
