/*
 * objects.h - the table of live MPI objects the application created:
 * communicators, datatypes, groups, ops, error handlers, windows, requests.
 *
 * RATIONALE: one uthash table keyed by (kind, handle bits) serves every kind.
 * Handles are pointers in Open MPI and ints in MPICH; both fit in 64 bits.
 * Each entry remembers where the object came from (the creating call, its
 * arguments and its call stack) so a leak report can point at that line.
 */
#ifndef MPICHECK_OBJECTS_H
#define MPICHECK_OBJECTS_H

#include <stdint.h>
#include <string.h>
/* Handles are already well spread (pointers, or MPICH's encoded ints): a
 * multiply-shift of the two key words is enough and far cheaper than
 * uthash's default Jenkins hash on every MPI call. */
#define HASH_FUNCTION(keyptr, keylen, hashv) do { \
        const uint64_t *k_ = (const uint64_t *)(keyptr); \
        uint64_t h_ = (k_[1] ^ (k_[0] << 56)) * 0x9E3779B97F4A7C15ULL; \
        (hashv) = (unsigned)(h_ >> 32); \
    } while (0)
#include <uthash.h>
#include "call.h"
#include "module.h"
#include "report.h"

typedef enum {
    MC_OBJ_COMM = 0, MC_OBJ_DATATYPE, MC_OBJ_GROUP, MC_OBJ_OP, MC_OBJ_ERRHANDLER,
    MC_OBJ_WIN, MC_OBJ_REQUEST, MC_OBJ_KIND_COUNT_
} mc_obj_kind;


/* Two 64-bit fields: no padding, whose garbage would break hash lookups. */
typedef struct {
    uint64_t kind;
    uint64_t bits;
} mc_obj_key;

/* Above 0 while the program says the objects it makes are meant to stay
 * (MPICHECK_LEAKS_INTENDED_BEGIN, core/client.c): they are made unowned,
 * so no leak check reports them. */
extern int mc_obj_leaks_intended;

typedef struct mc_obj {
    mc_obj_key key;
    int id;                 /* per-kind sequence number, for "comm#3" in reports */
    int owned;              /* 1: the application must free it (leak-checked) */
    mc_origin origin;
    /* communicators */
    int size, remote_size, rank, is_inter;
    /* datatypes */
    int committed;
    /* requests */
    int persistent, active;
    int copies;             /* more live requests with this same handle (MPI hands out one
                             * shared handle for operations it finished at once); for a
                             * group, the references the program holds beyond the first */
    int handed;             /* groups: how many times calls handed this handle out, in all */
    int tests;              /* completion calls that found it unfinished (leak reports) */
    int starts;             /* persistent: MPI_Start(all) calls that started it */
    const void *start_caller;   /* persistent: where the last of them was called */
    int cancelled;          /* MPI_Cancel was called on it (freeing it then is the way out) */
    const void *busy;       /* MPI_THREAD_MULTIPLE: the thread in a call completing it (checks/requests.c) */
    const void *busy_caller;    /* and that call: where it was made, its function */
    int busy_fn;
    /* The runtime's record of the object (runtime.h), NULL when it has
     * none: for a communicator its shadow (mc_pcomm, which the runtime
     * frees); for a request the engine holds, the record this entry is
     * the first member of (mc_prec), embedded. */
    void *ext;
    int embedded;           /* the entry is part of ext: removing it only unlinks it */
    int linked;             /* embedded entries: in the table now */
    UT_hash_handle hh;
} mc_obj;


/* Adds (or replaces) the object; the origin is taken from call c, with a full
 * stack when full_stack, else only the caller's address (cheap: requests).
 * A group handle the program still holds, handed out again (MPI_Comm_group
 * twice on one communicator gives the same handle in Open MPI and MPICH),
 * is one more reference to free: the entry counts it (copies) instead. */
mc_obj *mc_obj_add(int kind, uint64_t bits, const mc_call *c, int full_stack);
mc_obj *mc_obj_find(int kind, uint64_t bits);
/* Counts every entry added to or taken out of the table (moves included):
 * an entry found earlier is still the handle's while it has not changed
 * (runtime/poll.c keeps the records of a poll loop's handles by it). */
extern uint64_t mc_obj_epoch;
/* Forgets the handle's entry, unless it is embedded (ext): that one only
 * its record's owner takes out (mc_obj_unlink); a group's entry with more
 * references (copies) loses one of them instead. */
void mc_obj_remove(int kind, uint64_t bits);
/* The entry of a record that holds it (ext, above): links o, filled as
 * mc_obj_add fills its own, under the handle (a stale entry of the same
 * handle goes); unlink takes it out of the table again, when still in. */
void mc_obj_insert(mc_obj *o, void *ext, int kind, uint64_t bits, const mc_call *c, int full_stack);
void mc_obj_unlink(mc_obj *o);
/* Moves a linked entry to another handle value, keeping everything it
 * knows (a persistent request whose handle MPI_Start replaced: MPI-4.0
 * gives MPI_Start the request as INOUT, and Open MPI hands out a new one
 * for a buffered send still in transit). A stale entry of the new value
 * goes, as in mc_obj_insert. */
void mc_obj_rekey(mc_obj *o, uint64_t bits);
/* Calls fn for every object of kind (all kinds when kind < 0). */
void mc_obj_foreach(int kind, void (*fn)(mc_obj *o, void *arg), void *arg);
const char *mc_obj_kind_name(int kind);     /* "communicator", ... */

/* Names of the program's handles for reports (report.h). */
extern const mc_handle_namer mc_obj_namer;

/* Communicator facts, filled with PMPI queries at creation. */
void mc_comm_fill(mc_obj *o, MPI_Comm comm);
/* The tracked entry of a communicator, NULL when unknown. */
static inline mc_obj *mc_comm_find(MPI_Comm comm) { return mc_obj_find(MC_OBJ_COMM, MC_BITS(comm)); }

/* Updates the table after a successful call (roles *_OUT, *_FREE, COMMIT,
 * REQ*). Pre-phase snapshots are in c. */
void mc_track_pre(mc_call *c);
void mc_track_post(mc_call *c);

/* Who hears of communicators and datatypes the program makes and frees:
 * the runtime (its shadows, records holding a datatype) and the signature
 * cache (a freed datatype's handle may come back as another type). Tracking sits
 * below the runtime and may not name it; core sets the listener at start.
 * comm_freed and comm_created are called with no lock held. */
typedef struct {
    void (*comm_freeing)(MPI_Comm comm, int disconnect);  /* before the real free (or MPI_Comm_disconnect) */
    void (*type_freeing)(MPI_Datatype type);
    void (*comm_freed)(MPI_Comm comm);      /* after it */
    void (*comm_created)(mc_call *c, MPI_Comm comm);
} mc_track_listener;
void mc_track_listen(const mc_track_listener *l);

/* Tracking as one module of core's list (module.h): mc_track_pre before
 * calls that free or complete, mc_track_post after successful ones. */
extern const mc_module mc_track_module;

/* Request bookkeeping (requests.c), called by mc_track_pre/post. */
void mc_requests_pre(mc_call *c);
void mc_requests_post(mc_call *c);
/* How a request the program no longer holds ended: the call that
 * completed or freed it. Kept for the last MC_ENDED_MAX requests that
 * ended (a fixed pool: memory stays flat), and forgotten when MPI hands
 * the handle out again. Table lock held. */
#define MC_ENDED_MAX 256
typedef struct {
    int fn;                 /* the call that ended it */
    const void *caller;
    int made_fn;            /* the call that made it */
    const void *made_caller;
} mc_request_end;
/* Where the operation of request entry o started: its last MPI_Start for a
 * started persistent request, else the call that made the request. */
void mc_request_started_at(const mc_obj *o, mc_origin *at);
/* 1 and *how when the handle is one that a call of the program ended
 * and that was not handed out again. */
int mc_requests_ended(MPI_Request r, mc_request_end *how);
/* objects.c: a request's entry left the table. */
void mc_requests_dropped(const mc_obj *o);
/* A handle MPI handed out while a live request still had it: shared by
 * several requests, so neither ended nor busy is judged for it. */
void mc_requests_shared(uint64_t bits);
int mc_requests_is_shared(MPI_Request r);
/* After a failed call: only the requests MPI set to MPI_REQUEST_NULL. */
void mc_requests_after_error(mc_call *c);

#endif
