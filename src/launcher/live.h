/*
 * live.h - the terminal report under the launcher: while the job runs, a
 * thread reads the ranks' report parts and prints each distinct finding
 * once, with the ranks that reported it; the ranks print nothing.
 * RATIONALE: one leaked datatype in a 512-rank job printed by every rank is
 * 2,560 lines for one bug, and the real errors scroll away. The parts hold
 * every finding the moment it is made (report.c flushes each line), so the
 * launcher can fold them as they come (merge.c's identity, the one the
 * JSON report folds by) and print the first as soon as it is there.
 */
#ifndef MPICHECK_LIVE_H
#define MPICHECK_LIVE_H

#include "filter.h"
#include "writers.h"    /* MC_LIVE_MARKER */

typedef struct {
    int color;
    int verbose;        /* every rank's block, as the ranks would print them */
    const mc_filter *filter;    /* checks off, suppressions: those are not printed */
    int gen_suppressions;       /* a suppression entry after each block */
} mc_live_options;

/* Starts reading dir. 0, or -1 when the thread cannot start (then the
 * marker is removed and the ranks print as without a launcher). */
int mc_live_start(const char *dir, const mc_live_options *o);
/* Reads and prints what is new now (the hang watch calls it right after
 * it wrote a finding, so the block comes before "ending the hung job"). */
void mc_live_pass(void);
/* Stops the thread, reads what is left, prints it, and for each printed
 * finding that more ranks reported later, the ranks in all. */
void mc_live_stop(void);

#endif
