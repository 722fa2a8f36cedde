/*
 * run.h - starting the launcher command and supervising it: signals are
 * forwarded to its process group, and once it exits everything it left
 * behind (only processes this mpicheck started) is terminated and reaped.
 */
#ifndef MPICHECK_LAUNCHER_RUN_H
#define MPICHECK_LAUNCHER_RUN_H

#include "command.h"

/* Runs cmd (argv plus environment changes applied in the child only) and
 * waits for it. Returns 0 with the launcher's raw wait status in *wstatus,
 * or -1 when it could not be started (message printed). */
int mc_run_job(const mc_command *cmd, int *wstatus);

/* Ends the running job as a forwarded SIGTERM would (the hang watch, from
 * its own thread), without counting as a signal the user sent. */
void mc_run_stop_job(void);

/* The first signal forwarded to the job by the last mc_run_job, or 0. */
int mc_run_forwarded_signal(void);
/* 1 when the launcher ended the last job itself: a signal it forwarded,
 * or mc_run_stop_job. */
int mc_run_stopped(void);

/* Exit code for a wait status: the exit status, or 128+signal. */
int mc_status_exit_code(int wstatus);

#endif
