/*
 * checks.h - the families of checks, one file each.
 */
#ifndef MPICHECK_CHECKS_H
#define MPICHECK_CHECKS_H

#include "call.h"
#include "module.h"

/* args.c: invalid-argument, by parameter role, before the real call. */
void mc_check_args(mc_call *c);
/* Whether buffer parameter b of c is significant (MPI_IN_PLACE, roots). */
int mc_check_buffer_significant(const mc_call *c, int b);

/* overlap.c: buffer-overlap, two buffer arguments of one call (MPI_Sendrecv,
 * a collective without MPI_IN_PLACE) whose data bytes overlap. */
void mc_check_overlap(mc_call *c);

/* call_order.c: call-order, MPI calls before MPI_Init or after MPI_Finalize
 * other than those the standard allows, and MPI_Init/MPI_Finalize twice.
 * Returns 1 when the call was reported (the checker then stays out of it). */
int mc_check_call_order(mc_call *c);

/* requests.c: request-free-active, and invalid-argument for request
 * handles misused (freed or cancelled collective requests, starts of active
 * persistent requests, handles whose request already ended). */
void mc_check_requests(mc_call *c);
/* After such a call: the requests it marked busy (MPI_THREAD_MULTIPLE). */
void mc_check_requests_leave(mc_call *c);

/* rma_epochs.c: call-order, MPI_Win_free while this process's one-sided
 * epochs on the window are open (a lock, PSCW, operations since the last
 * fence); before the free, and after each accepted call on a window. */
void mc_check_rma_free(mc_call *c);
void mc_check_rma_epochs_after(mc_call *c);

/* leaks.c: resource-leak and request-leak, at MPI_Finalize. */
void mc_check_leaks_at_finalize(void);

/* module.c: all of the above as one module of core's list. */
extern const mc_module mc_checks_module;

/* mpi_errors.c: mpi-error, an error MPI raises under MPI_ERRORS_ARE_FATAL,
 * reported before the job ends; a module of its own (it sees the error
 * handler calls). Start: at MPI_Init, once the checker runs. */
void mc_mpi_errors_start(void);
extern const mc_module mc_mpi_errors_module;

#endif
