/*
 * objects.c - the live-object table (see objects.h).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "objects.h"
#include "skipped.h"
#include "state.h"
#include "report.h"
#include "stack.h"

static mc_obj *table;
uint64_t mc_obj_epoch;
/* Freed entries are kept for reuse: requests come and go at the rate of
 * the application's messages, and malloc/free on each would show. */
static mc_obj *free_list;
static unsigned free_count;
#define FREE_LIST_MAX 1024

/* Filled once with entries kept back for when the checker's memory runs
 * out: a communicator without its entry gets no shadow on this rank alone,
 * and the members that make theirs wait for it. */
#define FREE_LIST_START 64

static void free_list_fill(void)
{
    static int filled;
    if (filled)
        return;
    filled = 1;
    /* A failed allocation does not end the filling: memory may be short
     * only for a moment. */
    for (int tries = 0; free_count < FREE_LIST_START && tries < 2 * FREE_LIST_START; tries++) {
        mc_obj *o = mc_malloc(sizeof *o);
        if (!o)
            continue;
        o->hh.next = free_list;
        free_list = o;
        free_count++;
    }
}

static mc_obj *obj_alloc(void)
{
    free_list_fill();
    mc_obj *o = free_list;
    if (o) {
        free_list = o->hh.next;
        free_count--;
        return o;
    }
    return mc_malloc(sizeof *o);
}

static void obj_release(mc_obj *o)
{
    if (free_count >= FREE_LIST_MAX) {
        free(o);
        return;
    }
    o->hh.next = free_list;
    free_list = o;
    free_count++;
}
static int next_id[MC_OBJ_KIND_COUNT_];

static const char *const kind_names[MC_OBJ_KIND_COUNT_] = {
    "communicator", "datatype", "group", "operation", "error handler", "window", "request",
};

const char *mc_obj_kind_name(int kind)
{
    return kind >= 0 && kind < MC_OBJ_KIND_COUNT_ ? kind_names[kind] : "object";
}

/* A communicator leaves the table: the requests started on it, whose
 * entries keep no ids (origin_ids, below: made on hot paths), get its
 * number now, so that a later report (a request leaked at MPI_Finalize)
 * names it "comm#2 (freed since)", not "unknown communicator" or a later
 * communicator MPI handed the same handle. Communicators are freed
 * seldom, so the walk over the table costs little. */
static void name_requests_on(const mc_obj *comm)
{
    mc_obj *o, *tmp;
    HASH_ITER(hh, table, o, tmp) {
        mc_origin *og = &o->origin;
        if (o->key.kind != MC_OBJ_REQUEST || og->fn < 0 || og->fn >= MC_FN_COUNT_)
            continue;
        const mc_fn_desc *d = &mc_fn_table[og->fn];
        for (int i = 0; i < og->nvals && i < d->nparams; i++) {
            if (d->params[i].ctype != MC_CT_COMM || MC_BITS(og->vals[i].comm) != comm->key.bits)
                continue;
            if (og->nids == 0) {
                memset(og->ids, 0, sizeof og->ids);
                og->nids = og->nvals;
            }
            if (og->ids[i] == 0)
                og->ids[i] = (uint32_t)comm->id;
        }
    }
}

/* Takes an entry out of the table: the table's own go back to the free
 * list, a record's stay with the record. A request's entry is remembered
 * as ended unless another entry takes over the same request. */
static void obj_remove(mc_obj *o, int ended)
{
    HASH_DEL(table, o);
    if (o->key.kind == MC_OBJ_COMM && ended)
        name_requests_on(o);
    mc_obj_epoch++;
    if (o->key.kind == MC_OBJ_REQUEST && ended)
        mc_requests_dropped(o);
    if (o->embedded)
        o->linked = 0;
    else
        obj_release(o);
}

static void obj_drop(mc_obj *o) { obj_remove(o, 1); }

int mc_obj_leaks_intended;

/* Which objects the creating call's handle arguments named (the parent
 * communicator of a split, the old type of a derived one): a report made
 * later names them as they were, even once freed or their handles reused
 * (MPICH hands a freed handle out again at once). Not for requests (their
 * entries are made on hot paths, without full stacks). */
static void origin_ids(mc_origin *og, const mc_call *c)
{
    if (!c || !c->desc)
        return;
    for (int i = 0; i < og->nvals; i++) {
        int kind;
        uint64_t bits;
        switch (c->desc->params[i].ctype) {
        case MC_CT_COMM: kind = MC_OBJ_COMM; bits = MC_BITS(og->vals[i].comm); break;
        case MC_CT_DATATYPE: kind = MC_OBJ_DATATYPE; bits = MC_BITS(og->vals[i].type); break;
        case MC_CT_OP: kind = MC_OBJ_OP; bits = MC_BITS(og->vals[i].op); break;
        default: og->ids[i] = 0; continue;
        }
        mc_obj *named = mc_obj_find(kind, bits);
        og->ids[i] = named ? (uint32_t)named->id : 0;
    }
    og->nids = og->nvals;
}

static void obj_fill_link(mc_obj *o, void *ext, int kind, uint64_t bits, const mc_call *c, int full_stack)
{
    mc_obj_key key = {(uint64_t)kind, bits};
    mc_obj *old;
    HASH_FIND(hh, table, &key, sizeof key, old);
    if (old) {
        /* The engine's record of a request that tracking entered in this
         * same call (the newest request entry: a nonblocking collective,
         * whose handshake ties its record to the request after tracking
         * saw the call) takes the entry over: the same request, not a
         * shared handle, and it has not ended. */
        int same = kind == MC_OBJ_REQUEST && ext && !old->embedded && old->id == next_id[kind]
                   && c && old->origin.fn == c->fn;
        /* Otherwise a handle value we still hold was handed out again: the
         * old object is gone (freed by a path we do not see, e.g. inside
         * the library), or, for a request still active, the handle is a
         * shared one. */
        if (!same && kind == MC_OBJ_REQUEST && old->active)
            mc_requests_shared(bits);
        obj_remove(old, !same);
    }
    /* Everything but the origin's arrays, which mc_origin_capture fills as far
     * as they are used. */
    memset(o, 0, offsetof(mc_obj, origin));
    memset((char *)o + offsetof(mc_obj, origin) + sizeof o->origin, 0,
           sizeof *o - offsetof(mc_obj, origin) - sizeof o->origin);
    o->key = key;
    o->id = ++next_id[kind];
    o->owned = __atomic_load_n(&mc_obj_leaks_intended, __ATOMIC_RELAXED) <= 0;
    o->committed = 1;
    o->ext = ext;
    o->embedded = ext != NULL;
    o->linked = 1;
    o->handed = 1;
    mc_origin_capture(&o->origin, c, full_stack);
    if (full_stack)
        origin_ids(&o->origin, c);
    HASH_ADD(hh, table, key, sizeof key, o);
    mc_obj_epoch++;
}

/* Each group handle a call returns is a reference the program must free
 * with MPI_Group_free (MPI-4.0 sec. 7.3.2), even when MPI returns a handle
 * the program already holds, as both MPIs do for MPI_Comm_group: replacing
 * the entry lost the first reference, and a program that freed one of two
 * went unreported. Only groups: an errhandler's get calls are not tracked,
 * and a datatype or communicator handle comes back only once freed. */
static mc_obj *another_reference(int kind, uint64_t bits)
{
    if (kind != MC_OBJ_GROUP)
        return NULL;
    mc_obj *o = mc_obj_find(kind, bits);
    if (!o || o->embedded || !o->owned)
        return NULL;
    if (__atomic_load_n(&mc_obj_leaks_intended, __ATOMIC_RELAXED) > 0)
        return o;       /* a reference meant to stay (MPICHECK_LEAKS_INTENDED_BEGIN) */
    o->copies++;
    o->handed++;
    return o;
}

mc_obj *mc_obj_add(int kind, uint64_t bits, const mc_call *c, int full_stack)
{
    mc_obj *again = another_reference(kind, bits);
    if (again)
        return again;
    mc_obj *o = obj_alloc();
    if (o)
        obj_fill_link(o, NULL, kind, bits, c, full_stack);
    return o;
}

void mc_obj_insert(mc_obj *o, void *ext, int kind, uint64_t bits, const mc_call *c, int full_stack)
{
    obj_fill_link(o, ext, kind, bits, c, full_stack);
}

void mc_obj_unlink(mc_obj *o)
{
    if (o->embedded && o->linked)
        obj_drop(o);
}

void mc_obj_rekey(mc_obj *o, uint64_t bits)
{
    if ((o->embedded && !o->linked) || o->key.bits == bits)
        return;
    HASH_DEL(table, o);
    mc_obj_epoch++;
    mc_obj_key key = {o->key.kind, bits};
    mc_obj *old;
    HASH_FIND(hh, table, &key, sizeof key, old);
    if (old) {
        if (old->key.kind == MC_OBJ_REQUEST && old->active)
            mc_requests_shared(bits);
        obj_remove(old, 1);
    }
    o->key = key;
    HASH_ADD(hh, table, key, sizeof key, o);
    mc_obj_epoch++;
}

mc_obj *mc_obj_find(int kind, uint64_t bits)
{
    mc_obj_key key = {(uint64_t)kind, bits};
    mc_obj *o;
    HASH_FIND(hh, table, &key, sizeof key, o);
    return o;
}

void mc_obj_remove(int kind, uint64_t bits)
{
    mc_obj *o = mc_obj_find(kind, bits);
    /* An embedded entry leaves with its record (the engine takes it out
     * when it completes or orphans the request). Under MPI_THREAD_MULTIPLE
     * the handle a thread's wait just saw completed may already be another
     * thread's new request: removing that one's entry here lost the
     * engine's record of it (tests/programs/ok_threads_multiple.c). */
    if (o && !o->embedded && kind == MC_OBJ_GROUP && o->copies > 0)
        o->copies--;
    else if (o && !o->embedded)
        obj_drop(o);
}

void mc_obj_foreach(int kind, void (*fn)(mc_obj *o, void *arg), void *arg)
{
    mc_obj *o, *tmp;
    HASH_ITER(hh, table, o, tmp) {
        if (kind < 0 || o->key.kind == (uint64_t)kind)
            fn(o, arg);
    }
}

void mc_comm_fill(mc_obj *o, MPI_Comm comm)
{
    int flag = 0;
    PMPI_Comm_size(comm, &o->size);
    PMPI_Comm_rank(comm, &o->rank);
    PMPI_Comm_test_inter(comm, &flag);
    o->is_inter = flag;
    o->remote_size = 0;
    if (flag)
        PMPI_Comm_remote_size(comm, &o->remote_size);
}

/* The names report.h's namer gives the handles the program made. */
static char *name_of(int kind, uint64_t bits)
{
    char buf[128];
    buf[0] = '\0';
    MC_LOCK();
    mc_obj *o = mc_obj_find(kind, bits);
    if (o && kind == MC_OBJ_COMM && o->is_inter)
        snprintf(buf, sizeof buf, "comm#%d (intercommunicator, local size %d, remote size %d)",
                 o->id, o->size, o->remote_size);
    else if (o && kind == MC_OBJ_COMM)
        snprintf(buf, sizeof buf, "comm#%d (size %d)", o->id, o->size);
    else if (o && kind == MC_OBJ_DATATYPE)
        snprintf(buf, sizeof buf, "datatype#%d (derived%s)", o->id, o->committed ? "" : ", not committed");
    else if (o && kind == MC_OBJ_OP)
        snprintf(buf, sizeof buf, "op#%d (user-defined)", o->id);
    MC_UNLOCK();
    return buf[0] ? mc_strdup(buf) : NULL;
}

static char *name_comm(MPI_Comm comm) { return name_of(MC_OBJ_COMM, MC_BITS(comm)); }
static char *name_type(MPI_Datatype t) { return name_of(MC_OBJ_DATATYPE, MC_BITS(t)); }
static char *name_op(MPI_Op op) { return name_of(MC_OBJ_OP, MC_BITS(op)); }

static char *name_as_made(int ctype, uint64_t bits, uint32_t id)
{
    int kind = ctype == MC_CT_COMM ? MC_OBJ_COMM : ctype == MC_CT_DATATYPE ? MC_OBJ_DATATYPE : MC_OBJ_OP;
    MC_LOCK();
    mc_obj *o = mc_obj_find(kind, bits);
    int same = o && (uint32_t)o->id == id;
    MC_UNLOCK();
    if (same)
        return NULL;    /* as it is now: the usual name (MPI_COMM_WORLD, comm#3 (size 2)) */
    char buf[64];
    snprintf(buf, sizeof buf, "%s#%u (freed since)",
             kind == MC_OBJ_COMM ? "comm" : kind == MC_OBJ_DATATYPE ? "datatype" : "op", id);
    return mc_strdup(buf);
}

const mc_handle_namer mc_obj_namer = {.comm = name_comm, .datatype = name_type, .op = name_op,
                                      .as_made = name_as_made};
