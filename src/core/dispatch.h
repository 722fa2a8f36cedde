/*
 * dispatch.h - the runtime interface of every wrapper.
 *
 * A generated wrapper does exactly this:
 *
 *     if (MC_BYPASS()) return PMPI_X(args);      re-entered, or checker off
 *     mc_value v_[n] = the arguments;
 *     mc_call_enter(&c_, MC_FN_MPI_X, v_, caller); pre-checks, tracking
 *     rc_ = PMPI_X(args);                          the real call, unchanged
 *     mc_call_leave(&c_, rc_ == MPI_SUCCESS);      post-update on success only
 *     return rc_;                                  MPI's return code, untouched
 *
 * RATIONALE: the re-entry guard is thread-local and stays raised across the
 * PMPI call, so MPI calls the library makes internally (ROMIO, for one) and
 * the checker's own PMPI traffic are never checked as if the user made them.
 */
#ifndef MPICHECK_DISPATCH_H
#define MPICHECK_DISPATCH_H

#include "call.h"

/* The MPI functions are the library's only exported symbols (everything else
 * is built with -fvisibility=hidden, so internal calls skip the PLT). */
#define MC_EXPORT __attribute__((visibility("default")))

/* The wrapper takes the PMPI path at once: re-entered, or the checker is off
 * (call.h: mc_depth, mc_disabled). */
#define MC_BYPASS() (__builtin_expect(mc_depth != 0 || mc_disabled, 0))

/* Pre-phase: raises the guard, checks call order and arguments, snapshots
 * what the post-phase needs. Never calls the user-visible MPI_ functions. */
void mc_call_enter(mc_call *c, int fn, mc_value *vals, const void *caller);

/* A nonblocking collective the coll module holds (c->hold): instead of the
 * real call, which start makes once the call's handshake ended
 * (coll/held.c). request gets the program's request. */
int mc_hold_start(mc_call *c, mc_start_fn start, MPI_Request *request);

/* Post-phase: when ok (the call returned MPI_SUCCESS), updates the tracked
 * state (new handles, freed handles, completed requests); lowers the guard. */
void mc_call_leave(mc_call *c, int ok);

/* A Fortran entry point (src/fortran/) around the C wrapper it reaches:
 * the program's call site is the Fortran entry's return address, not the
 * C wrapper's (which lies in the MPI library's Fortran binding or in the
 * shim), and the report spells the call as Fortran does (MPI_SEND). Only
 * the first wrapper of function fn (or its large-count form fn_c) entered
 * at depth 0 while the frame is up takes it. Frames do not nest: an entry
 * point reached through another (Open MPI's mpi_send_f08_ calls
 * ompi_send_f) keeps the outer one, whose return address is the
 * program's. */
typedef struct {
    int fn, fn_c;
    const void *caller;
    int used;
    int lang;       /* MC_LANG_* bits for the call */
} mc_lang_frame;

/* Raises f unless a frame is up already; returns whether it did. lang:
 * MC_LANG_* bits, added to the frame that is up. */
int mc_lang_enter(mc_lang_frame *f, int fn, int fn_c, const void *caller, int lang);
/* Lowers f if mc_lang_enter raised it. */
void mc_lang_leave(mc_lang_frame *f, int raised);

#endif
