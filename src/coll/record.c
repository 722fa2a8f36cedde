/*
 * record.c - one member's contribution to a collective handshake, read from
 * the call's arguments (collrec.h has the fields), and the local MPI_IN_PLACE
 * rules that need no other member.
 *
 * A "part" is what one member sends to, or receives from, one peer: the
 * signature hash of count x datatype (equal for 2 x MPI_INT, 1 x MPI_2INT
 * and contiguous(2, MPI_INT)) and its size in bytes. Collectives require
 * every pair's parts to match exactly (MPI-3.1 sec. 5.1: "the amount of data
 * sent must exactly match the amount of data specified by the receiver").
 */
#include <stdio.h>
#include <string.h>
#include "coll_internal.h"
#include "objects.h"
#include "runtime.h"
#include "typecache.h"
#include "report.h"
#include "state.h"
#include "typesig.h"

mc_part mc_part_of(MPI_Datatype t, MPI_Count n)
{
    mc_part p = {0, 0, 1, 0};
    if (t == MPI_DATATYPE_NULL || n < 0)
        return p;
    uint64_t h = 0, ne = 0;
    uint32_t fl = 0;
    MPI_Count sz = 0;
    if (n == 0) {
        p.valid = 1;
        p.hash = (int64_t)mc_collrec_mix(0, 0);     /* nothing: any type */
        return p;
    }
    mc_type_extents x;
    if (mc_typecache_extents(t, &x) != 0)
        return p;
    sz = x.size;
    mc_typecache_total(t, (uint64_t)n, &h, &ne, &fl);
    p.hash = (int64_t)mc_collrec_mix(h, ne);
    p.bytes = (int64_t)(sz * n);
    p.nosig = (fl & (MC_SIG_OPAQUE | MC_SIG_PACKED | MC_SIG_OVERFLOW)) != 0;
    p.valid = 1;
    return p;
}

static void put_part(mc_collrec *r, int hash_field, int bytes_field, mc_part p)
{
    if (!p.valid)
        return;
    mc_collrec_put(r, hash_field, p.hash);
    mc_collrec_put(r, bytes_field, p.bytes);
    if (p.nosig)
        mc_collrec_put(r, MC_CR_NOSIG, 1);
}

void mc_rec_send(mc_collrec *r, int g, mc_part p) { put_part(r, MC_CR_G(MC_CR_SEND_HASH, g), MC_CR_G(MC_CR_SEND_BYTES, g), p); }
void mc_rec_recv(mc_collrec *r, int g, mc_part p) { put_part(r, MC_CR_G(MC_CR_RECV_HASH, g), MC_CR_G(MC_CR_RECV_BYTES, g), p); }

MPI_Count mc_arg_count(const mc_call *c, int i)
{
    if (i < 0)
        return 0;
    return c->desc->params[i].ctype == MC_CT_COUNT ? c->vals[i].c : (MPI_Count)c->vals[i].i;
}

MPI_Count mc_arg_count_at(const mc_coll_fn *f, const mc_call *c, int i, int k)
{
    const void *a = i >= 0 ? c->vals[i].p : NULL;
    if (!a)
        return -1;
    return f->large ? ((const MPI_Count *)a)[k] : (MPI_Count)((const int *)a)[k];
}

MPI_Datatype mc_arg_type_at(const mc_coll_fn *f, const mc_call *c, int i, int k)
{
    if (i < 0)
        return MPI_DATATYPE_NULL;
    if (f->shape != MC_SH_ALLTOALLW && f->nbr != MC_NBR_ALLTOALLW)
        return c->vals[i].type;
    const MPI_Datatype *a = c->vals[i].p;
    return a ? a[k] : MPI_DATATYPE_NULL;
}

/* An id of the reduction operation that means the same on every rank:
 * predefined operations by name, user operations by the call site of their
 * function (module and offset, equal in every process of one program). */
static int64_t op_id(MPI_Op op)
{
    /* Not a static table: Open MPI's handles are addresses, not constants. */
    const MPI_Op pre[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
                          MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (pre[i] == op)
            return (int64_t)i + 1;
    int64_t id = 1000;      /* a user operation the checker did not see created */
    MC_LOCK();
    mc_obj *o = mc_obj_find(MC_OBJ_OP, MC_BITS(op));
    if (o && o->origin.nvals > 0) {
        uint64_t mod = 0, off = 0;
        mc_site_encode(o->origin.vals[0].p, &mod, &off);
        id = (int64_t)mc_collrec_mix(mc_collrec_mix(mod, off), (uint64_t)o->origin.vals[1].i);
    }
    MC_UNLOCK();
    return id;
}

/* Folds per-peer parts into one (arrays that must be equal everywhere). */
static mc_part fold_parts(const mc_coll_fn *f, const mc_call *c, int counts, int types, int n)
{
    mc_part acc = {(int64_t)mc_collrec_mix(5, (uint64_t)n), (int64_t)mc_collrec_mix(6, (uint64_t)n), 0, 1};
    for (int k = 0; k < n; k++) {
        mc_part p = mc_part_of(mc_arg_type_at(f, c, types, k), mc_arg_count_at(f, c, counts, k));
        if (!p.valid)
            return p;
        acc.hash = (int64_t)mc_collrec_mix((uint64_t)acc.hash, (uint64_t)p.hash);
        acc.bytes = (int64_t)mc_collrec_mix((uint64_t)acc.bytes, (uint64_t)p.bytes);
        acc.nosig |= p.nosig;
    }
    return acc;
}

static void misuse(mc_call *c, const char *what)
{
    mc_report_call(MC_CLASS_COLLECTIVE_MISMATCH, c, "MPI_IN_PLACE misuse in %s: %s", c->desc->name, what);
}

/* Whether this member's send and receive buffers are significant. An
 * intracommunicator's rooted collective ignores the receive buffer of a
 * non-root of MPI_Gather(v) and MPI_Reduce and the send buffer of a
 * non-root of MPI_Scatter(v) (MPI-4.0 sec. 6.5, 6.6, 6.9.1: "significant
 * only at root"); an ignored argument may hold anything, MPI_IN_PLACE too
 * (Quantum ESPRESSO's mp_gatherv_inplace passes it as a non-root's recvbuf
 * of MPI_Gatherv, and both MPIs accept it). On an intercommunicator every
 * MPI_IN_PLACE stays a misuse, ignored arguments included: MPI has no
 * in-place form there, and the MPIs refuse it even where the argument is
 * ignored (Open MPI 4.1 in the other group's recvbuf of MPI_Gather, MPICH
 * 4.0 in the MPI_ROOT's sendbuf of MPI_Reduce: MPI_ERR_ARG). */
static void significant_buffers(const mc_coll_fn *f, const hs_t *h, int *s_sig, int *r_sig)
{
    *s_sig = *r_sig = 1;
    if (h->inter || f->a_root < 0)
        return;
    int at_root = h->root_arg == h->comm_rank;
    switch (f->shape) {
    case MC_SH_GATHER: case MC_SH_GATHERV: case MC_SH_REDUCE:
        *r_sig = at_root;
        break;
    case MC_SH_SCATTER: case MC_SH_SCATTERV:
        *s_sig = at_root;
        break;
    default:
        break;
    }
}

/* MPI_IN_PLACE where this member may not give it (MPI-3.1 sec. 5.2.1 and
 * each operation's "in place" paragraph). Returns 1 after reporting. */
static int check_in_place(mc_call *c, const mc_coll_fn *f, hs_t *h)
{
    const void *sb = f->a_sbuf >= 0 ? c->vals[f->a_sbuf].p : NULL;
    const void *rb = f->a_rbuf >= 0 ? c->vals[f->a_rbuf].p : NULL;
    int s_sig, r_sig;
    significant_buffers(f, h, &s_sig, &r_sig);
    int s_in = s_sig && sb == MPI_IN_PLACE && f->a_sbuf >= 0;
    int r_in = r_sig && rb == MPI_IN_PLACE && f->a_rbuf >= 0;
    if (!s_in && !r_in)
        return 0;
    if (h->inter) {
        misuse(c, "MPI_IN_PLACE is not allowed on an intercommunicator");
        return 1;
    }
    int at_root = h->root_arg == h->comm_rank;
    switch (f->shape) {
    case MC_SH_BCAST:
        misuse(c, "MPI_Bcast has no in-place form (buffer is MPI_IN_PLACE)");
        return 1;
    case MC_SH_GATHER: case MC_SH_GATHERV: case MC_SH_REDUCE:
        if (r_in) { misuse(c, "recvbuf is MPI_IN_PLACE (only sendbuf at the root may be)"); return 1; }
        if (!at_root) { misuse(c, "sendbuf is MPI_IN_PLACE at a rank that is not the root"); return 1; }
        return 0;
    case MC_SH_SCATTER: case MC_SH_SCATTERV:
        if (s_in) { misuse(c, "sendbuf is MPI_IN_PLACE (only recvbuf at the root may be)"); return 1; }
        if (!at_root) { misuse(c, "recvbuf is MPI_IN_PLACE at a rank that is not the root"); return 1; }
        return 0;
    case MC_SH_NEIGHBOR:
        misuse(c, "neighborhood collectives have no in-place form");
        return 1;
    default:
        if (r_in) { misuse(c, "recvbuf is MPI_IN_PLACE (only sendbuf may be)"); return 1; }
        return 0;
    }
}

/* Operations whose in-place form must be chosen by all members at once. */
static int in_place_everywhere(int shape)
{
    switch (shape) {
    case MC_SH_ALLGATHER: case MC_SH_ALLGATHERV: case MC_SH_ALLTOALL: case MC_SH_ALLTOALLV:
    case MC_SH_ALLTOALLW: case MC_SH_ALLREDUCE: case MC_SH_REDUCE_SCATTER:
    case MC_SH_REDUCE_SCATTER_BLOCK:
        return 1;
    default:
        return 0;
    }
}

/* Intercommunicator roots: 0 MPI_ROOT, 1 MPI_PROC_NULL, 2 a rank of the other group. */
static void put_inter_root(mc_collrec *r, hs_t *h)
{
    int g = h->group;
    int cls = h->root_arg == MPI_ROOT ? 0 : h->root_arg == MPI_PROC_NULL ? 1 : 2;
    mc_collrec_put(r, MC_CR_RCLASS + g, cls);
    if (cls == 0) {
        mc_collrec_put(r, MC_CR_ROOTER + g, mc_st.world_rank);
        mc_collrec_put(r, MC_CR_ROOTRANK + g, h->comm_rank);
    } else if (cls == 2) {
        mc_collrec_put(r, MC_CR_RROOT + g, h->root_arg);
    }
}

void mc_rec_build(mc_call *c, const mc_coll_fn *f, hs_t *h, mc_collrec *r)
{
    mc_collrec_init(r);
    mc_collrec_put(r, MC_CR_KIND, (int64_t)f->family * 4 + f->variant);
    int shape = f->shape;
    /* Arguments that failed the checks (reported already) are not read: this
     * member still takes part, saying only which operation it called, so the
     * others' handshake completes and counts stay aligned. */
    if (c->invalid)
        return;
    if (shape == MC_SH_BARRIER || shape == MC_SH_NEIGHBOR) {
        if (shape == MC_SH_NEIGHBOR)
            check_in_place(c, f, h);
        if (f->a_root >= 0 && !h->inter)     /* local_leader, a spawn's root (shape.c) */
            mc_collrec_put(r, MC_CR_ROOT, h->root_arg);
        return;
    }
    const void *sb = f->a_sbuf >= 0 ? c->vals[f->a_sbuf].p : NULL;
    const void *rb = f->a_rbuf >= 0 ? c->vals[f->a_rbuf].p : NULL;
    int s_in = f->a_sbuf >= 0 && sb == MPI_IN_PLACE;
    int r_in = f->a_rbuf >= 0 && rb == MPI_IN_PLACE;
    if (check_in_place(c, f, h))
        h->local_misuse = 1;
    if (f->a_op >= 0)
        mc_collrec_put(r, MC_CR_OP, op_id(c->vals[f->a_op].op));
    if (in_place_everywhere(shape))
        mc_collrec_put(r, MC_CR_INPLACE, s_in);
    int g = h->inter ? h->group : 0;
    int rooted = f->a_root >= 0;
    if (rooted) {
        if (h->inter)
            put_inter_root(r, h);
        else
            mc_collrec_put(r, MC_CR_ROOT, h->root_arg);
    }
    /* Who is the root here, who sends to it (intercommunicator: the other
     * group gives the data, MPI_PROC_NULL members take no part). */
    int is_root = h->inter ? h->root_arg == MPI_ROOT : h->root_arg == h->comm_rank;
    int inactive = h->inter && h->root_arg == MPI_PROC_NULL;
    /* Parts are read only where the standard makes the arguments
     * significant: a non-root's recvtype of MPI_Gather may be anything, and
     * asking MPI about it could end the job. */
#define PS() mc_part_of(c->vals[f->a_stype].type, mc_arg_count(c, f->a_scount))
#define PR() mc_part_of(c->vals[f->a_rtype].type, mc_arg_count(c, f->a_rcount))
    switch (shape) {
    case MC_SH_BCAST:
        if (inactive)
            break;
        if (is_root) mc_rec_send(r, g, PS());
        else mc_rec_recv(r, g, PS());
        break;
    case MC_SH_GATHER:
        if (inactive)
            break;
        if (is_root) {
            mc_rec_recv(r, g, PR());
            if (!h->inter && !s_in)
                mc_rec_send(r, g, PS());
        } else {
            mc_rec_send(r, g, PS());
        }
        break;
    case MC_SH_SCATTER:
        if (inactive)
            break;
        if (is_root) {
            mc_rec_send(r, g, PS());
            if (!h->inter && !r_in)
                mc_rec_recv(r, g, PR());
        } else {
            mc_rec_recv(r, g, PR());
        }
        break;
    case MC_SH_ALLGATHER: case MC_SH_ALLTOALL:
        if (!s_in)
            mc_rec_send(r, g, PS());
        mc_rec_recv(r, g, PR());
        break;
    case MC_SH_REDUCE:
        if (inactive)
            break;
        /* Every member's count x datatype is the same (sec. 5.9.1). */
        if (h->inter) {
            if (is_root) mc_rec_recv(r, g, PS());
            else mc_rec_send(r, g, PS());
        } else {
            mc_part p = PS();
            mc_rec_send(r, g, p);
            mc_rec_recv(r, g, p);
        }
        break;
    case MC_SH_ALLREDUCE: case MC_SH_SCAN: case MC_SH_EXSCAN: {
        mc_part p = PS();
        mc_rec_send(r, g, p);
        mc_rec_recv(r, g, p);
        break;
    }
    case MC_SH_REDUCE_SCATTER_BLOCK: {
        /* Intracommunicator: recvcount x datatype, the same everywhere.
         * Intercommunicator (MPI-3.1 sec. 5.10.1): each group reduces
         * vectors of local size x recvcount elements and scatters the
         * result over the other group; the groups' recvcounts differ, the
         * vectors' lengths agree (1 x 7168 against 7 x 1024). */
        MPI_Count n = h->inter ? (MPI_Count)(h->flat_size - h->npeers) : 1;
        mc_part p = mc_part_of(c->vals[f->a_rtype].type, n * mc_arg_count(c, f->a_rcount));
        mc_rec_send(r, g, p);
        mc_rec_recv(r, g, p);
        break;
    }
    case MC_SH_REDUCE_SCATTER:
        if (!h->inter) {    /* recvcounts must be the same array everywhere */
            mc_part all = fold_parts(f, c, f->a_rcount, f->a_rtype, h->npeers);
            mc_rec_send(r, g, all);
            mc_rec_recv(r, g, all);
        }
        break;
    case MC_SH_ALLGATHERV:
        if (!h->inter) {
            /* recvcounts the same everywhere, and each member's own part
             * equal to its entry there (checked here: the arrays agree). */
            mc_part all = fold_parts(f, c, f->a_rcount, f->a_rtype, h->npeers);
            mc_rec_recv(r, g, all);
            if (!s_in && all.valid) {
                mc_part want = mc_part_of(c->vals[f->a_rtype].type,
                                          mc_arg_count_at(f, c, f->a_rcount, h->comm_rank));
                mc_part have = mc_part_of(c->vals[f->a_stype].type, mc_arg_count(c, f->a_scount));
                if (mc_part_differs(have, want)) {
                    mc_collrec_put(r, MC_CR_VBAD, 1);
                    h->vbad = 1;
                    mc_part_note(h, have, want, "its own entry of recvcounts");
                }
            }
        }
        break;
    default:
        break;      /* v-variants: the exchange after the first reduction */
    }
#undef PS
#undef PR
}

int mc_part_differs(mc_part have, mc_part want)
{
    if (!have.valid || !want.valid)
        return 0;
    if (have.bytes != want.bytes)
        return 1;
    return !have.nosig && !want.nosig && have.hash != want.hash;
}

void mc_part_note(hs_t *h, mc_part have, mc_part want, const char *whose)
{
    if (h->vnote[0])
        return;
    snprintf(h->vnote, sizeof h->vnote, "sends %lld bytes where %s says %lld bytes%s",
             (long long)have.bytes, whose, (long long)want.bytes,
             have.bytes == want.bytes ? " of another type signature" : "");
}
