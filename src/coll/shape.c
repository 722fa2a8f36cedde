/*
 * shape.c - which MPI functions are collective, and what their arguments
 * mean to the handshake. Built once from the generated function table by
 * name: "MPI_Ibcast_c" is the family Bcast, nonblocking, large-count.
 * Arguments are found by their roles in the prototype list (buffer roles
 * and their references, ROOT, OP: wrappers/README.md), never by names.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "coll.h"
#include "fn_table.h"

static const struct { const char *base; int shape; } families[] = {
    {"Barrier", MC_SH_BARRIER}, {"Bcast", MC_SH_BCAST},
    {"Gather", MC_SH_GATHER}, {"Gatherv", MC_SH_GATHERV},
    {"Scatter", MC_SH_SCATTER}, {"Scatterv", MC_SH_SCATTERV},
    {"Allgather", MC_SH_ALLGATHER}, {"Allgatherv", MC_SH_ALLGATHERV},
    {"Alltoall", MC_SH_ALLTOALL}, {"Alltoallv", MC_SH_ALLTOALLV}, {"Alltoallw", MC_SH_ALLTOALLW},
    {"Reduce", MC_SH_REDUCE}, {"Allreduce", MC_SH_ALLREDUCE},
    {"Scan", MC_SH_SCAN}, {"Exscan", MC_SH_EXSCAN},
    {"Reduce_scatter", MC_SH_REDUCE_SCATTER}, {"Reduce_scatter_block", MC_SH_REDUCE_SCATTER_BLOCK},
    /* Neighborhood collectives (MPI-3.1 sec. 7.6): parts pair along the
     * topology's edges, compared per edge (neighbor.c, nbr_kind below). */
    {"Neighbor_allgather", MC_SH_NEIGHBOR}, {"Neighbor_allgatherv", MC_SH_NEIGHBOR},
    {"Neighbor_alltoall", MC_SH_NEIGHBOR}, {"Neighbor_alltoallv", MC_SH_NEIGHBOR},
    {"Neighbor_alltoallw", MC_SH_NEIGHBOR},
    /* Collective over a communicator, no data to compare (MPI-3.1 6.4, 7,
     * 11.2, 13.2). MPI_Comm_create_group is collective over the group only
     * and MPI_Intercomm_create over both groups' local communicators: the
     * first is left out, the second is checked within each local group.
     * MPI_Comm_free is collective too, but no implementation makes it wait
     * for the other members, and correct programs free a communicator while
     * the others still use theirs in collectives elsewhere (MPICH's
     * comm/cmfree frees it with a receive pending, then joins
     * MPI_Comm_split on MPI_COMM_WORLD before the sender does): a handshake
     * that waited there would deadlock a correct program, so it has none. */
    {"Comm_dup", MC_SH_BARRIER}, {"Comm_dup_with_info", MC_SH_BARRIER},
    {"Comm_split", MC_SH_BARRIER}, {"Comm_split_type", MC_SH_BARRIER},
    {"Comm_create", MC_SH_BARRIER},
    {"Comm_disconnect", MC_SH_BARRIER},
    {"Cart_create", MC_SH_BARRIER}, {"Cart_sub", MC_SH_BARRIER},
    {"Graph_create", MC_SH_BARRIER}, {"Dist_graph_create", MC_SH_BARRIER},
    {"Dist_graph_create_adjacent", MC_SH_BARRIER},
    {"Intercomm_create", MC_SH_BARRIER}, {"Intercomm_merge", MC_SH_BARRIER},
    /* Dynamic processes: collective over comm, with a root every member
     * must name alike (MPI-3.1 sec. 10.3.2, 10.4.2). */
    {"Comm_spawn", MC_SH_BARRIER}, {"Comm_spawn_multiple", MC_SH_BARRIER},
    {"Comm_accept", MC_SH_BARRIER}, {"Comm_connect", MC_SH_BARRIER},
    {"Win_create", MC_SH_BARRIER}, {"Win_allocate", MC_SH_BARRIER},
    {"Win_allocate_shared", MC_SH_BARRIER}, {"Win_create_dynamic", MC_SH_BARRIER},
    {"File_open", MC_SH_BARRIER},
};
#define NFAMILIES (int)(sizeof families / sizeof families[0])

static mc_coll_fn table[MC_FN_COUNT_];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int family_of(const char *base)
{
    for (int i = 0; i < NFAMILIES; i++)
        if (strcmp(families[i].base, base) == 0)
            return i;
    return -1;
}

/* MC_NBR_* of a neighbor collective family, MC_NBR_NONE for the rest. */
static int nbr_kind(const char *base)
{
    static const struct { const char *base; int kind; } kinds[] = {
        {"Neighbor_allgather", MC_NBR_ALLGATHER}, {"Neighbor_allgatherv", MC_NBR_ALLGATHERV},
        {"Neighbor_alltoall", MC_NBR_ALLTOALL}, {"Neighbor_alltoallv", MC_NBR_ALLTOALLV},
        {"Neighbor_alltoallw", MC_NBR_ALLTOALLW},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].base, base) == 0)
            return kinds[i].kind;
    return MC_NBR_NONE;
}

/* A buffer role's count and datatype references (-1: none; COLLBUF_SUM's
 * count is a sum over an array). */
static int buffer_refs(const mc_param_desc *p, int *count, int *type)
{
    switch (p->role) {
    case MC_ROLE_SBUF: case MC_ROLE_RBUF: case MC_ROLE_ROOTBUF: case MC_ROLE_LEAFBUF:
    case MC_ROLE_BCASTBUF: case MC_ROLE_COLLBUF:
        *count = p->ref[0];
        *type = p->ref[1];
        return 1;
    case MC_ROLE_ROOTBUFV: case MC_ROLE_LEAFBUFV: case MC_ROLE_SBUFV: case MC_ROLE_RBUFV:
        *count = p->ref[0];     /* counts; ref[1] is the displacements */
        *type = p->ref[2];
        return 1;
    case MC_ROLE_COLLBUF_SUM:
        *count = -1;
        *type = p->ref[0];
        return 1;
    default:
        return 0;
    }
}

static int param_with_role(const mc_fn_desc *d, int role)
{
    for (int i = 0; i < d->nparams; i++)
        if (d->params[i].role == role)
            return i;
    return -1;
}

/* The send buffer comes before the receive buffer in every collective of
 * the standard; a single buffer (MPI_Bcast) is both. */
static void find_args(const mc_fn_desc *d, mc_coll_fn *f)
{
    int buf[2], cnt[2], typ[2], nb = 0;
    for (int i = 0; i < d->nparams && nb < 2; i++)
        if (buffer_refs(&d->params[i], &cnt[nb], &typ[nb]))
            buf[nb++] = i;
    f->a_sbuf = f->a_rbuf = f->a_scount = f->a_rcount = f->a_stype = f->a_rtype = -1;
    if (nb >= 1) {
        f->a_sbuf = buf[0];
        f->a_scount = f->a_rcount = cnt[0];
        f->a_stype = f->a_rtype = typ[0];
    }
    if (nb == 2) {
        f->a_rbuf = buf[1];
        f->a_rcount = cnt[1];
        f->a_rtype = typ[1];
    }
    f->a_root = param_with_role(d, MC_ROLE_ROOT);
    f->a_op = param_with_role(d, MC_ROLE_OP);
    /* Calls without data whose members must still name one process alike:
     * MPI_Intercomm_create's local_leader (MPI-3.1 sec. 6.6.2), the root of
     * MPI_Comm_spawn and MPI_Comm_accept/connect. A rank of the
     * communicator, compared like an intracommunicator collective's root. */
    if (f->shape == MC_SH_BARRIER && f->a_root < 0)
        for (int i = 0; i < d->nparams; i++)
            if (d->params[i].role == MC_ROLE_RANK
                && (strcmp(d->params[i].name, "local_leader") == 0 || strcmp(d->params[i].name, "root") == 0))
                f->a_root = i;
}

static void build(void)
{
    for (int fn = 0; fn < MC_FN_COUNT_; fn++) {
        const mc_fn_desc *d = &mc_fn_table[fn];
        mc_coll_fn *f = &table[fn];
        f->shape = MC_SH_NONE;
        if (!d->name || strncmp(d->name, "MPI_", 4) != 0)
            continue;
        char base[64];
        size_t n = strlen(d->name + 4);
        if (n >= sizeof base)
            continue;
        memcpy(base, d->name + 4, n + 1);
        int large = 0, variant = MC_VAR_BLOCKING;
        if (n > 2 && strcmp(base + n - 2, "_c") == 0) {
            large = 1;
            base[n -= 2] = 0;
        }
        if (n > 5 && strcmp(base + n - 5, "_init") == 0) {
            variant = MC_VAR_PERSISTENT;
            base[n -= 5] = 0;
        }
        int fam = family_of(base);
        if (fam < 0 && variant == MC_VAR_BLOCKING && base[0] == 'I' && base[1]) {
            /* MPI_Ibcast: the family's name with its first letter lowered */
            char up[64];
            snprintf(up, sizeof up, "%s", base + 1);
            up[0] = (char)toupper((unsigned char)up[0]);
            if ((fam = family_of(up)) >= 0)
                variant = MC_VAR_NONBLOCKING;
        }
        if (fam < 0 && (strcmp(base, "Comm_idup") == 0 || strcmp(base, "Comm_idup_with_info") == 0)) {
            fam = family_of("Comm_dup");
            variant = MC_VAR_NONBLOCKING;
        }
        if (fam < 0 || (fam >= 0 && strcmp(families[fam].base, "Comm_create") == 0 && variant))
            continue;
        /* Comm_dup_with_info is Comm_dup for matching purposes. */
        if (strcmp(families[fam].base, "Comm_dup_with_info") == 0)
            fam = family_of("Comm_dup");
        f->shape = families[fam].shape;
        f->nbr = nbr_kind(families[fam].base);
        f->variant = variant;
        f->family = fam;
        f->large = large;
        f->a_comm = -1;
        f->comm_ptr = 0;
        for (int i = 0; i < d->nparams; i++) {
            if (d->params[i].role == MC_ROLE_COMM && f->a_comm < 0)
                f->a_comm = i;
            if (d->params[i].role == MC_ROLE_COMM_FREE && f->a_comm < 0) {
                f->a_comm = i;
                f->comm_ptr = 1;
            }
        }
        if (f->a_comm < 0) {
            f->shape = MC_SH_NONE;      /* no communicator to shake hands on */
            continue;
        }
        find_args(d, f);
        /* Its send buffer holds group size x recvcount elements: the
         * SBUF role's count (what the argument checks use) is only a
         * bound, and no one parameter gives the count. */
        if (f->shape == MC_SH_REDUCE_SCATTER_BLOCK)
            f->a_scount = -1;
    }
}

static int built;   /* set (release) once build() ran: the hot path skips pthread_once */

static void build_once(void)
{
    build();
    __atomic_store_n(&built, 1, __ATOMIC_RELEASE);
}

void mc_coll_table_init(void) { pthread_once(&once, build_once); }

/* Asked by every MPI call the engine sees (most of them not collectives). */
const mc_coll_fn *mc_coll_fn_of(int fn)
{
    if (fn < 0 || fn >= MC_FN_COUNT_)
        return NULL;
    if (!__atomic_load_n(&built, __ATOMIC_ACQUIRE))
        mc_coll_table_init();
    return table[fn].shape == MC_SH_NONE ? NULL : &table[fn];
}

const char *mc_coll_family_name(int family)
{
    static __thread char buf[64];
    if (family < 0 || family >= NFAMILIES)
        return "MPI_(unknown collective)";
    snprintf(buf, sizeof buf, "MPI_%s", families[family].base);
    return buf;
}
