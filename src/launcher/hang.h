/*
 * hang.h - the launcher's hang watch: a job whose ranks all sit inside MPI
 * calls (or have ended) with no progress for --hang-timeout is reported as
 * a `hang` finding with every stuck rank's call and stack, and ended.
 * Also ends a launcher that stays after every rank's process has gone.
 */
#ifndef MPICHECK_LAUNCHER_HANG_H
#define MPICHECK_LAUNCHER_HANG_H

#include <stddef.h>
#include "board_layout.h"

/* Starts watching the boards of part directory dir in a thread of its own
 * (timeout_s <= 0: does nothing). stop_job ends the job (run.c); it is
 * called for a hang when abort_job is set, and for a launcher that outlives
 * its ranks. Returns 0, or -1 with a warning printed. */
int mc_hang_watch_start(const char *dir, double timeout_s, int abort_job, int color, void (*stop_job)(void));
/* Stops the thread (after the job) and lets the boards go. */
void mc_hang_watch_stop(void);

/* A board the watch has mapped: its file name in the part directory. */
typedef struct {
    char *name;
    mc_board_page *page;
    size_t maplen;
    /* Per thread slot, the call (its entries count) a transfer's credit
     * (an RMA synchronization's, a receive's, a collective's: hang_rule.h)
     * runs for and the thread's processor time when it began. */
    uint64_t xfer_entries[MC_BOARD_THREADS];
    unsigned long long xfer_cpu0[MC_BOARD_THREADS];
} mc_hang_board;

/* Maps board file name of dir (read-only unless writable) into out, once
 * its rank has written it whole; 0, or -1 when it is not (yet) a board. */
int mc_hang_board_map(const char *dir, const char *name, int writable, mc_hang_board *out);
void mc_hang_board_unmap(mc_hang_board *b);
/* The name of the rank's MPI function number fn, from the board's table;
 * NULL when out of range. */
const char *mc_hang_fn_name(const mc_board_page *b, size_t maplen, int fn);
/* Whether process pid runs (exists and is not a zombie). */
int mc_hang_pid_alive(int pid);

#endif
