/*
 * hang_report.h - the `hang` finding: asks every stuck thread of the job
 * for its call and stack (the dump signal of report/board_layout.h), then
 * writes one finding into the part directory and prints it.
 */
#ifndef MPICHECK_LAUNCHER_HANG_REPORT_H
#define MPICHECK_LAUNCHER_HANG_REPORT_H

#include <stddef.h>
#include "hang.h"
#include "hang_rule.h"
#include "finding.h"

/* boards[i] is what r[i] was read from; missing lists the first job's
 * ranks that never called MPI_Init; frozen_s is how long nothing moved. */
void mc_hang_report(const char *dir, const mc_hang_board *boards, size_t n, const mc_hang_rank *r,
                    const int *missing, size_t nmissing, double frozen_s, int color);

/* The job after MPI_Finalize: the ranks with lingering[i] set returned
 * from it but their processes stayed, idle, for still_s seconds. */
void mc_hang_report_lingering(const char *dir, const mc_hang_board *boards, size_t n, const char *lingering,
                              double still_s, int color);

/* Writes f, a finding of the launcher's own, into the part directory
 * (rank-hang.jsonl), has the terminal report print it at once, and frees
 * what it owns. */
void mc_hang_emit(const char *dir, mc_finding *f);

/* Appends to the message msg of capacity cap, *len long, as far as it fits. */
void mc_hang_put(char *msg, size_t cap, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
