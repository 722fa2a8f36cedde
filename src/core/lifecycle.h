/*
 * lifecycle.h - the run of the checker inside one rank, from MPI_Init (or
 * the first session) to MPI_Finalize, and its end when the checker itself
 * fails. Only core calls these; the state they move is util/state.h.
 */
#ifndef MPICHECK_LIFECYCLE_H
#define MPICHECK_LIFECYCLE_H

#include "state.h"

/* Called by MPI_Init/MPI_Init_thread once the real call succeeded. */
void mc_runtime_after_init(int provided);
/* MPI_Pcontrol's levels as client requests (client.c): 0 off, 1 on, 2 flush. */
void mc_client_pcontrol(int level);
/* The first call of a process whose MPI_Init the checker did not see. */
void mc_runtime_unseen_init(const char *first_call);
/* At the entry of the first MPI_Init or MPI_Init_thread. */
void mc_runtime_before_init(void);

/* Called by MPI_Finalize before the real call: end-of-run checks, reports. */
void mc_runtime_before_finalize(void);

/* Called by MPI_Finalize after the real call. */
void mc_runtime_after_finalize(void);

/* Removes the checker from LD_PRELOAD for the programs this rank starts. */
void mc_keep_preload_from_children(void);

/* Sets the MPI_COMM_SELF attribute whose deletion ends the run (after init). */
void mc_end_of_run_register(void);

/* The sessions model: the first MPI_Session_init starts the checker, the
 * last MPI_Session_finalize ends its run. */
void mc_runtime_session_opened(void);
void mc_runtime_session_closing(void);

/* Turns the checker off for the rest of the run after an internal failure,
 * with one message; the application goes on unchecked. */
void mc_disable(const char *why);
/* rank_exit.c: at the checker's start, registers the exit handler that
 * reports a rank ending without MPI_Finalize; after MPI_Init, installs the
 * handlers that report a rank ending by a fatal signal. */
void mc_rank_exit_boot(void);
void mc_rank_exit_install(void);

/* Hands report what it needs of the run (report.h), again after any of it
 * changed. */
void mc_report_settings_push(void);

#endif
