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

/* boards[i] is what r[i] was read from; missing lists the first job's
 * ranks that never called MPI_Init; frozen_s is how long nothing moved. */
void mc_hang_report(const char *dir, const mc_hang_board *boards, size_t n, const mc_hang_rank *r,
                    const int *missing, size_t nmissing, double frozen_s, int color);

/* The job after MPI_Finalize: the ranks with lingering[i] set returned
 * from it but their processes stayed, idle, for still_s seconds. */
void mc_hang_report_lingering(const char *dir, const mc_hang_board *boards, size_t n, const char *lingering,
                              double still_s, int color);

#endif
