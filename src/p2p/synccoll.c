/*
 * synccoll.c - strict mode's model of synchronous sends (syncmodel.c)
 * across blocking collectives.
 *
 * A correct program must not deadlock whether or not its collectives
 * synchronize (MPI-4.0 sec. 6.14), so in the model a blocking collective
 * completes only once every member has entered it. A member that enters it
 * while it depends on a send (its own, let go unacknowledged, or one it
 * learned) passes that dependency on to every member, from its completion
 * of the collective: rank 0 sends to 1 (let go, rank 1 computes) and calls
 * MPI_Barrier; rank 1 calls MPI_Barrier, then receives from 0. With a
 * synchronous send rank 0 never reaches the barrier; in this run MPI
 * buffered the send, and without this file nothing would close the cycle
 * (docs/design.md, "Sends let go without their acknowledgment").
 *
 * How: each member says in its handshake record (MC_CR_DEPS, coll/) whether
 * it has dependencies to tell; the combined record is the same on every
 * member, so when any said so, every member runs one more reduction right
 * after the handshake, on the communicator's flat copy: the union of the
 * members' lists of sends (at most MC_DEP_WIRE, the smallest kept, so the
 * operation is associative and commutative as MPI requires). A collective
 * with nobody to tell costs two slots of the record and this file's test.
 *
 * A member the model no longer follows (syncmodel.c, mc_sync_wildcard)
 * says so in the same field, and then no member is followed after the
 * collective: what it brings in may be what synchronous sends would not
 * have let it know (the review of 2026-11-29, seventh session, passed a
 * wildcard receive's outcome on through an MPI_Allreduce).
 *
 * Not followed (a miss at most): the dependencies of nonblocking and
 * persistent collectives and of intercommunicators' (a member that is not
 * followed still says so there), entries a member told through a collective on the
 * same communicator before, and a let-go send whose call site no longer
 * waits while it is younger than 10 ms (mc_dep_may_tell). Engine lock
 * held throughout.
 */
#include <string.h>
#include "p2p_internal.h"
#include "syncmodel.h"
#include "state.h"
#include "skipped.h"
#include "hooks.h"

typedef struct {
    int32_t n, pad_;
    mc_dep_id e[MC_DEP_WIRE];   /* sorted by (rank, serial) */
} coll_ids;

_Static_assert(sizeof(coll_ids) <= MC_COLL_DEPS_BYTES, "coll_ids too large for the handshake's buffers");

static uint64_t coll_event;     /* this rank's event at its entry into the collective */
static MPI_Op union_op = MPI_OP_NULL;

static int id_less(mc_dep_id a, mc_dep_id b)
{
    return a.rank != b.rank ? a.rank < b.rank : a.serial < b.serial;
}

/* The union of two sorted lists, the smallest MC_DEP_WIRE kept: the same
 * result in whatever order MPI combines the members' lists. */
static void merge_one(const coll_ids *a, coll_ids *b)
{
    coll_ids out = {0};
    int i = 0, j = 0;
    while (out.n < MC_DEP_WIRE && (i < a->n || j < b->n)) {
        mc_dep_id next;
        if (j >= b->n || (i < a->n && id_less(a->e[i], b->e[j])))
            next = a->e[i++];
        else
            next = b->e[j++];
        if (!out.n || !mc_dep_same(out.e[out.n - 1], next))
            out.e[out.n++] = next;
    }
    *b = out;
}

static void union_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int k = 0; k < *len; k++)
        merge_one((const coll_ids *)in + k, (coll_ids *)inout + k);
}

/* Whether d is told through this collective on comm. */
static int to_tell(mc_dep_entry *d, MPI_Comm comm, double *now)
{
    return mc_dep_in_at(d, coll_event) && d->told_coll != comm && mc_dep_may_tell(d, -1, now);
}

int mc_sync_coll_enter(mc_pcomm *pc, int blocking)
{
    if (!mc_eng_strict || (!pc->is_inter && pc->size < 2))
        return 0;
    /* A member the model no longer follows may bring into the collective
     * (its data, its timing) what synchronous sends would not have let it
     * know: none of the members is followed after it. */
    if (!mc_sync_modelled(pc))
        return MC_COLL_DEPS_OFF;
    coll_event = ++mc_dep_events;
    if (!mc_ndeps || !blocking || pc->is_inter)
        return 0;
    mc_dep_prune_acked();
    double now = 0.0;
    for (int i = 0; i < mc_ndeps; i++)
        if (to_tell(&mc_deps[i], pc->comm, &now))
            return 1;
    return 0;
}

static int failed;      /* the operation could not be made: this rank takes part without it */

/* The operation, made at the first use on every member alike; the type
 * (one element of it: MPI never hands the operation a part of a list) for
 * each reduction, freed once started (MPI keeps it while the reduction
 * runs; MPICH warns of datatypes left at MPI_Finalize). */
static MPI_Datatype make_type(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (!failed && union_op == MPI_OP_NULL && PMPI_Op_create(union_fn, 1, &union_op) != MPI_SUCCESS)
        union_op = MPI_OP_NULL;
    if (!failed && (union_op == MPI_OP_NULL || PMPI_Type_contiguous((int)sizeof(coll_ids), MPI_BYTE, &t) != MPI_SUCCESS
                    || PMPI_Type_commit(&t) != MPI_SUCCESS)) {
        failed = 1;
        mc_skipped(MC_SKIP_NO_MEMORY);
        mc_sync_wildcard();     /* this rank is no longer followed */
    }
    return failed ? MPI_DATATYPE_NULL : t;
}

/* Every member starts it, followed by the model or not: the others wait in
 * the same reduction. */
int mc_sync_coll_start(MPI_Comm comm, MPI_Comm flat, void *mine_buf, void *all_buf, MPI_Request *req)
{
    coll_ids *mine = mine_buf, *all = all_buf;
    memset(mine, 0, sizeof *mine);
    memset(all, 0, sizeof *all);
    MPI_Datatype t = make_type();
    mc_pcomm *pc = mc_pcomm_get(comm);
    int on = !failed && pc && mc_sync_modelled(pc);
    double now = 0.0;
    for (int i = 0; on && i < mc_ndeps; i++) {
        mc_dep_entry *d = &mc_deps[i];
        if (!to_tell(d, comm, &now))
            continue;
        d->told_coll = comm;
        coll_ids one = {.n = 1, .e = {d->id}};
        merge_one(&one, mine);
    }
    /* Without the operation, the same bytes with a predefined one: the
     * others must not wait for this member for ever. */
    if (failed)
        return PMPI_Iallreduce(mine, all, (int)sizeof *mine, MPI_BYTE, MPI_BOR, flat, req);
    int rc = PMPI_Iallreduce(mine, all, 1, t, union_op, flat, req);
    PMPI_Type_free(&t);
    return rc;
}

/* The members' dependencies, from the completion of the collective on. */
void mc_sync_coll_end(MPI_Comm comm, const void *all_buf, const mc_call *c)
{
    const coll_ids *all = all_buf;
    mc_pcomm *pc = mc_pcomm_get(comm);
    if (failed || !c || !pc || !mc_sync_modelled(pc) || all->n <= 0)
        return;
    int n = all->n > MC_DEP_WIRE ? MC_DEP_WIRE : all->n;
    mc_dep_call via = {.rank = mc_st.world_rank, .fn = c->fn, .fortran = (c->fortran & MC_LANG_FORTRAN) != 0,
                       .caller = c->caller, .peer = -1, .tag = -1, .coll = 1};
    mc_dep_call none = {.rank = -1, .fn = -1, .peer = -1, .tag = -1};
    mc_dep_learn(all->e, n, mc_dep_events, MC_DEP_COLL, &none, &via);
    /* Every member has them now: a later collective on this communicator
     * would only tell them back. */
    for (int i = 0; i < n; i++) {
        mc_dep_entry *d = mc_dep_find(all->e[i]);
        if (d)
            d->told_coll = comm;
    }
}
