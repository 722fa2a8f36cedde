/*
 * report_internal.h - between report.c (findings) and part_out.c (the
 * rank's files in the part directory, local or relayed to the launcher).
 */
#ifndef MPICHECK_REPORT_INTERNAL_H
#define MPICHECK_REPORT_INTERNAL_H

#include "report.h"

/* Takes the run's settings (the part directory, the launcher's collector). */
void mc_part_out_configure(const mc_report_settings *s);
/* Appends f to this rank's part: 1 when it got there (a message on stderr
 * says why when it did not). */
int mc_part_out_finding(const mc_finding *f);
/* Whether the launcher prints the findings this rank stored. */
int mc_part_out_launcher_prints(void);

#endif
