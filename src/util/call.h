/*
 * call.h - one MPI call as the checker sees it: its arguments (mc_value),
 * the call in flight (mc_call, from the wrapper's enter to its leave), a
 * call made earlier (mc_origin), a handle's bits, and the re-entry guard's
 * state. What a wrapper does with them is core/dispatch.h.
 */
#ifndef MPICHECK_CALL_H
#define MPICHECK_CALL_H

#include <stdint.h>
#include <string.h>
#include <mpi.h>
#include "fn_table.h"

/* One argument value; which member is set is given by the parameter's ctype. */
typedef union {
    int i;
    MPI_Count c;
    MPI_Aint a;
    MPI_Offset o;
    double d;
    const void *p;
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Op op;
    MPI_Group group;
    MPI_Request req;
    MPI_Win win;
    MPI_Info info;
    MPI_Errhandler eh;
    MPI_File file;
    MPI_Message msg;
} mc_value;

/* Per-call scratch space that pre-checks hand to post-updates. */
#define MC_SNAP_INLINE 16

/* One intercepted call, alive from mc_call_enter to mc_call_leave. */
typedef struct {
    int fn;                     /* enum mc_fn */
    const mc_fn_desc *desc;
    mc_value *vals;             /* the arguments, desc->params order */
    const void *caller;         /* return address into the application */
    /* Handles a call frees or requests it may complete, read before the
     * PMPI call (the call overwrites them with *_NULL). */
    union {
        MPI_Comm comm;
        MPI_Datatype type;
        MPI_Op op;
        MPI_Group group;
        MPI_Errhandler eh;
        MPI_Win win;
    } freed;
    int freed_id;               /* the freed communicator's entry (tracking): its id, 0 if none */
    MPI_Request *req_before;    /* snapshot of REQ / REQ_ARRAY handles */
    int nreq_before;
    MPI_Request req_inline[MC_SNAP_INLINE];
    int skip;                   /* 1: the checker stays out of this call */
    int engine;                 /* 1: the handshake engine makes the real call (src/p2p/, src/runtime/) */
    int invalid;                /* an argument check failed: the checker passes no handle of it to MPI */
    int new_comm_unsafe;        /* the checker runs no collective over the new communicator: not every
                                 * process got it, or MPI cannot run one on it (src/inter/) */
    int dynamic_checked;        /* MPI_Comm_spawn(_multiple) and the children's parent communicator: every
                                 * process of both groups runs the checker and makes its shadow (inter/spawn.c) */
    uint64_t coll_key;          /* a nonblocking collective's instance, for its request (src/coll/) */
    int hold;                   /* 1: the real nonblocking collective starts once its handshake ended
                                 * (coll/held.c); the wrapper calls mc_hold_start instead */
    void *held;                 /* then the engine's record of it (mc_prec) */
    int synced;                 /* 1: an MPI_Barrier whose handshake already synchronized every member:
                                 * the wrapper makes no real call (`!synced`, coll/hs_p2p.c) */
    int polled;                 /* 1: an MPI_Test of a held request that is not ready: answered
                                 * "not complete" without the checks or a real call (runtime/poll.c) */
    const void *outer;          /* the call this one runs inside of (a callback's), or NULL */
    uint64_t seq;               /* this thread's count of calls at its enter: tells apart calls that
                                 * share a stack address */
    int fortran;                /* MC_LANG_* bits: made through a Fortran entry point (src/fortran/) */
} mc_call;

/* mc_call.fortran: the call came from Fortran (reports name it MPI_SEND);
 * some of its arguments are the entry point's converted copies, valid
 * only during the call (the checker must not keep them). */
enum { MC_LANG_FORTRAN = 1, MC_LANG_TRANSIENT = 2 };

/* A held nonblocking collective's real call, made later from the call's
 * saved values (generated per function: wrappers/gen_wrappers.py). */
typedef int (*mc_start_fn)(const mc_value *vals, MPI_Request *request);

#define MC_ORIGIN_MAX_VALS 12
#define MC_ORIGIN_MAX_PCS 16

/* The bits of a handle (pointers in Open MPI, ints in MPICH: both fit). */
static inline uint64_t mc_bits(const void *handle, size_t size)
{
    uint64_t b = 0;
    memcpy(&b, handle, size < sizeof b ? size : sizeof b);
    return b;
}
/* Works on constants too (MPI_COMM_WORLD is not an lvalue in Open MPI). */
#define MC_BITS(h) mc_bits(&(__typeof__(h)){(h)}, sizeof(h))

/* A call made earlier, kept to be shown in a report: the call that
 * created an object (tracking/objects.h), for one. */
typedef struct {
    int fn;                                 /* enum mc_fn */
    int fortran;                            /* made from Fortran (mc_call.fortran) */
    int nvals;
    mc_value vals[MC_ORIGIN_MAX_VALS];
    int npcs;
    uintptr_t pcs[MC_ORIGIN_MAX_PCS];       /* innermost first */
    /* The object each handle argument named when the call was made (its id
     * in the object table; 0: none or not recorded), for the first nids
     * values: by the time a report shows the call, the handle may name
     * another object, or none. Tracking fills it for what it creates. */
    int nids;
    uint32_t ids[MC_ORIGIN_MAX_VALS];
} mc_origin;

/* Pooled records are cleared by ranges, not whole: a memset of a whole
 * record was the largest single cost of a message's and of a collective's
 * bookkeeping (docs/performance.md). An origin's arrays count only as far
 * as their counts, so clearing the counts empties it. */
#define MC_ZERO_RANGE(p, from, to) memset((char *)(p) + (from), 0, (size_t)((to) - (from)))
static inline void mc_origin_clear(mc_origin *o)
{
    o->fn = o->fortran = o->nvals = o->npcs = o->nids = 0;
}

/* Thread-local nesting depth of wrapper calls (0: the user is calling).
 * initial-exec: the library is loaded at start-up (preloaded or linked), and
 * this makes the guard a single memory access instead of a function call. */
extern __thread int mc_depth __attribute__((tls_model("initial-exec")));
/* The call this thread is in (from its wrapper's enter to its leave), for
 * what MPI reports from inside it (checks/mpi_errors.c); NULL outside MPI. */
extern __thread mc_call *mc_cur_call __attribute__((tls_model("initial-exec")));
extern __thread uint64_t mc_call_seq __attribute__((tls_model("initial-exec")));
/* 1 once the checker has turned itself off after an internal failure. */
extern int mc_disabled;

#endif
