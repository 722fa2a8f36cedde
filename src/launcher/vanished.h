/*
 * vanished.h - after a job that failed, a `rank-exit` finding for the
 * ranks that ended while it ran with no word of their own: killed by
 * SIGKILL, or by a fatal signal whose handler the program replaced
 * (hang_rule.h, mc_hang_vanished, has the rule).
 */
#ifndef MPICHECK_LAUNCHER_VANISHED_H
#define MPICHECK_LAUNCHER_VANISHED_H

/* Reads the boards of part directory dir after the job ended with status
 * job_code (not 0, and not by a signal the launcher forwarded or a stop
 * of its own); reports the vanished ranks unless the ranks' own error
 * findings already say why the job failed. */
void mc_vanished_report(const char *dir, int job_code);

#endif
