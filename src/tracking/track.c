/*
 * track.c - keeps the object table in step with the application's calls,
 * driven only by parameter roles: a function gains tracking by having its
 * roles written in wrappers/mpi.protos, never by code here.
 */
#include "objects.h"
#include "state.h"

static mc_track_listener listener;

void mc_track_listen(const mc_track_listener *l)
{
    listener = *l;
}

#define FREE_ROLES (MC_ROLE_BIT(MC_ROLE_COMM_FREE) | MC_ROLE_BIT(MC_ROLE_DATATYPE_FREE) \
    | MC_ROLE_BIT(MC_ROLE_OP_FREE) | MC_ROLE_BIT(MC_ROLE_GROUP_FREE) \
    | MC_ROLE_BIT(MC_ROLE_ERRHANDLER_FREE) | MC_ROLE_BIT(MC_ROLE_WIN_FREE))

/* What a *_FREE role frees, read before the call nulls the handle. Most
 * calls that come here free nothing (the Wait and Test families): they
 * skip the loop. */
void mc_track_pre(mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    int n = (d->role_mask & FREE_ROLES) ? d->nparams : 0;
    for (int i = 0; i < n; i++) {
        const void *p = c->vals[i].p;
        switch (d->params[i].role) {
        case MC_ROLE_COMM_FREE:
            if (p) {
                c->freed.comm = *(const MPI_Comm *)p;
                MC_LOCK();
                mc_obj *o = mc_comm_find(c->freed.comm);
                c->freed_id = o ? o->id : 0;
                MC_UNLOCK();
                if (listener.comm_freeing)
                    listener.comm_freeing(c->freed.comm, c->fn == MC_FN_MPI_Comm_disconnect);
            }
            break;
        case MC_ROLE_DATATYPE_FREE:
            if (p) {
                c->freed.type = *(const MPI_Datatype *)p;
                if (listener.type_freeing)
                    listener.type_freeing(c->freed.type);
            }
            break;
        case MC_ROLE_OP_FREE:         if (p) c->freed.op = *(const MPI_Op *)p; break;
        case MC_ROLE_GROUP_FREE:      if (p) c->freed.group = *(const MPI_Group *)p; break;
        case MC_ROLE_ERRHANDLER_FREE: if (p) c->freed.eh = *(const MPI_Errhandler *)p; break;
        case MC_ROLE_WIN_FREE:        if (p) c->freed.win = *(const MPI_Win *)p; break;
        default: break;
        }
    }
    mc_requests_pre(c);
}

/* The communicator an MPI_Comm_idup copies: its new handle may not be queried
 * before the request completes, but it has the parent's group. */
static int is_idup(int fn)
{
    return fn == MC_FN_MPI_Comm_idup || fn == MC_FN_MPI_Comm_idup_with_info;
}

static int param_with_role(const mc_fn_desc *d, int role)
{
    for (int i = 0; i < d->nparams; i++)
        if (d->params[i].role == role)
            return i;
    return -1;
}

static void track_new_comm(mc_call *c, MPI_Comm comm, int owned)
{
    if (comm == MPI_COMM_NULL || comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF)
        return;
    if (!owned && mc_comm_find(comm))
        return;
    mc_obj *o = mc_obj_add(MC_OBJ_COMM, MC_BITS(comm), c, 1);
    if (!o)
        return;
    o->owned = owned && o->owned;
    int parent = param_with_role(c->desc, MC_ROLE_COMM);
    mc_obj *po = parent >= 0 ? mc_comm_find(c->vals[parent].comm) : NULL;
    if (is_idup(c->fn) && po) {
        o->size = po->size; o->rank = po->rank;
        o->is_inter = po->is_inter; o->remote_size = po->remote_size;
    } else {
        mc_comm_fill(o, comm);
    }
}

static void track_new_type(mc_call *c, MPI_Datatype type)
{
    if (type == MPI_DATATYPE_NULL)
        return;
    mc_obj *o = mc_obj_add(MC_OBJ_DATATYPE, MC_BITS(type), c, 1);
    if (!o)
        return;
    o->committed = 0;
    /* MPI_Type_dup keeps the committed state of its input. */
    if (c->fn == MC_FN_MPI_Type_dup) {
        mc_obj *in = mc_obj_find(MC_OBJ_DATATYPE, MC_BITS(c->vals[0].type));
        o->committed = in ? in->committed : 1;
    }
}

/* Roles only requests.c acts on: a call with no other tracked role (Isend,
 * Wait, ...) skips the loop below. */
#define REQ_ONLY (MC_ROLE_BIT(MC_ROLE_REQ) | MC_ROLE_BIT(MC_ROLE_REQ_ARRAY) | MC_ROLE_BIT(MC_ROLE_REQ_OUT) \
    | MC_ROLE_BIT(MC_ROLE_REQ_VAL) \
    | MC_ROLE_BIT(MC_ROLE_COMM) | MC_ROLE_BIT(MC_ROLE_DATATYPE) | MC_ROLE_BIT(MC_ROLE_COUNT) \
    | MC_ROLE_BIT(MC_ROLE_DEST) | MC_ROLE_BIT(MC_ROLE_SOURCE) | MC_ROLE_BIT(MC_ROLE_STAG) \
    | MC_ROLE_BIT(MC_ROLE_RTAG) | MC_ROLE_BIT(MC_ROLE_SBUF) | MC_ROLE_BIT(MC_ROLE_RBUF) \
    | MC_ROLE_BIT(MC_ROLE_COLLBUF) | MC_ROLE_BIT(MC_ROLE_COLLBUF_SUM))

void mc_track_post(mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    MPI_Comm made = MPI_COMM_NULL, freed = MPI_COMM_NULL;
    MC_LOCK();
    int n = (d->role_mask & ~REQ_ONLY) ? d->nparams : 0;
    for (int i = 0; i < n; i++) {
        const void *p = c->vals[i].p;
        switch (d->params[i].role) {
        case MC_ROLE_COMM_OUT:
            if (p) {
                track_new_comm(c, *(const MPI_Comm *)p, 1);
                made = *(const MPI_Comm *)p;
            }
            break;
        case MC_ROLE_COMM_PARENT: if (p) track_new_comm(c, *(const MPI_Comm *)p, 0); break;
        case MC_ROLE_COMM_FREE: {
            /* Only the entry this call freed: under MPI_THREAD_MULTIPLE
             * another thread's new communicator may have its handle (and an
             * entry, with the engine's record of its shadow) by now, and
             * removing that one left the new communicator without a shadow
             * on this rank alone (tests/programs/deadlock_ok_comm_dup_threads.c
             * hung with MPICH). */
            mc_obj *o = mc_comm_find(c->freed.comm);
            if (o && o->id == c->freed_id)
                mc_obj_remove(MC_OBJ_COMM, MC_BITS(c->freed.comm));
            freed = c->freed.comm;
            break;
        }
        case MC_ROLE_DATATYPE_OUT: if (p) track_new_type(c, *(const MPI_Datatype *)p); break;
        case MC_ROLE_DATATYPE_FREE: mc_obj_remove(MC_OBJ_DATATYPE, MC_BITS(c->freed.type)); break;
        case MC_ROLE_DATATYPE_COMMIT:
            if (p) {
                mc_obj *o = mc_obj_find(MC_OBJ_DATATYPE, MC_BITS(*(const MPI_Datatype *)p));
                if (o)
                    o->committed = 1;
            }
            break;
        case MC_ROLE_OP_OUT:
            if (p && *(const MPI_Op *)p != MPI_OP_NULL)
                mc_obj_add(MC_OBJ_OP, MC_BITS(*(const MPI_Op *)p), c, 1);
            break;
        case MC_ROLE_OP_FREE: mc_obj_remove(MC_OBJ_OP, MC_BITS(c->freed.op)); break;
        case MC_ROLE_GROUP_OUT:
            /* Empty results come back as the predefined MPI_GROUP_EMPTY,
             * which needs no freeing. */
            if (p && *(const MPI_Group *)p != MPI_GROUP_NULL && *(const MPI_Group *)p != MPI_GROUP_EMPTY)
                mc_obj_add(MC_OBJ_GROUP, MC_BITS(*(const MPI_Group *)p), c, 1);
            break;
        case MC_ROLE_GROUP_FREE: mc_obj_remove(MC_OBJ_GROUP, MC_BITS(c->freed.group)); break;
        case MC_ROLE_ERRHANDLER_OUT:
            if (p && *(const MPI_Errhandler *)p != MPI_ERRHANDLER_NULL)
                mc_obj_add(MC_OBJ_ERRHANDLER, MC_BITS(*(const MPI_Errhandler *)p), c, 1);
            break;
        case MC_ROLE_ERRHANDLER_FREE: mc_obj_remove(MC_OBJ_ERRHANDLER, MC_BITS(c->freed.eh)); break;
        case MC_ROLE_WIN_OUT:
            if (p && *(const MPI_Win *)p != MPI_WIN_NULL) {
                mc_st.windows++;
                mc_obj *o = mc_obj_add(MC_OBJ_WIN, MC_BITS(*(const MPI_Win *)p), c, 1);
                MPI_Group g;
                if (o && PMPI_Win_get_group(*(const MPI_Win *)p, &g) == MPI_SUCCESS) {
                    PMPI_Group_size(g, &o->size);
                    PMPI_Group_free(&g);
                }
            }
            break;
        case MC_ROLE_WIN_FREE:
            mc_obj_remove(MC_OBJ_WIN, MC_BITS(c->freed.win));
            if (mc_st.windows > 0)
                mc_st.windows--;
            break;
        default: break;
        }
    }
    mc_requests_post(c);
    MC_UNLOCK();
    /* The engine lock comes before the table lock (runtime.h). */
    if (freed != MPI_COMM_NULL && listener.comm_freed)
        listener.comm_freed(freed);
    /* The new communicator's shadow, made outside every lock: it is a
     * collective call, and another thread may need the lock meanwhile.
     * Every member is in this same call now. */
    if (made != MPI_COMM_NULL && listener.comm_created)
        listener.comm_created(c, made);
}

/* Which roles each phase acts on: a call whose roles touch neither set
 * skips tracking entirely (most calls do). */
#define PRE_TRACK_ROLES (MC_ROLE_BIT(MC_ROLE_COMM_FREE) | MC_ROLE_BIT(MC_ROLE_DATATYPE_FREE) \
    | MC_ROLE_BIT(MC_ROLE_OP_FREE) | MC_ROLE_BIT(MC_ROLE_GROUP_FREE) \
    | MC_ROLE_BIT(MC_ROLE_ERRHANDLER_FREE) | MC_ROLE_BIT(MC_ROLE_WIN_FREE) \
    | MC_ROLE_BIT(MC_ROLE_REQ) | MC_ROLE_BIT(MC_ROLE_REQ_ARRAY))
#define POST_TRACK_ROLES (PRE_TRACK_ROLES | MC_ROLE_BIT(MC_ROLE_COMM_OUT) \
    | MC_ROLE_BIT(MC_ROLE_COMM_PARENT) | MC_ROLE_BIT(MC_ROLE_DATATYPE_OUT) \
    | MC_ROLE_BIT(MC_ROLE_DATATYPE_COMMIT) | MC_ROLE_BIT(MC_ROLE_OP_OUT) \
    | MC_ROLE_BIT(MC_ROLE_GROUP_OUT) | MC_ROLE_BIT(MC_ROLE_ERRHANDLER_OUT) \
    | MC_ROLE_BIT(MC_ROLE_WIN_OUT) | MC_ROLE_BIT(MC_ROLE_REQ_OUT))

static void track_leave(mc_call *c, int ok)
{
    if (ok)
        mc_track_post(c);
    else if (c->nreq_before)
        /* A completion call that returned an error (MPI_ERR_IN_STATUS, a
         * generalized request's query error) still completed the requests
         * it set to MPI_REQUEST_NULL. */
        mc_requests_after_error(c);
}

const mc_module mc_track_module = {
    .name = "tracking",
    .roles = PRE_TRACK_ROLES,
    .enter = mc_track_pre,
    .leave_roles = POST_TRACK_ROLES,
    .leave = track_leave,
};
