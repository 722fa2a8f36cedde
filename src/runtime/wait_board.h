/*
 * wait_board.h - what this rank is blocked in, readable by a rank that dies
 * (on the page of rank_board.h).
 */
#ifndef MPICHECK_WAIT_BOARD_H
#define MPICHECK_WAIT_BOARD_H

#include <stdint.h>
#include "finding.h"
#include "runtime.h"

/* Whether this rank has a board to write (callers skip describing a wait
 * when not). */
int mc_board_active(void);
/* This rank now waits in call c (the engine's wait loop, past its first
 * spins) for the world ranks describe(ctx) names, or for every rank. */
void mc_board_set(mc_call *c, mc_describe_fn describe, void *ctx);
void mc_board_clear(void);
/* The ranks whose board says they wait for world rank dead: one call text
 * each (the MPI call and its call site, resolved here), at most max.
 * Returns how many. Safe enough for a dying process: open/read only. */
int mc_board_waiters(int dead, mc_call_text *out, int max);
/* A rank that relays its part to the launcher (report/relay.c) starts a
 * thread that sends its board's wait there too (board_relay.c); after
 * MPI_Init, inside its wrapper (the thread is the checker's, not the
 * program's). */
void mc_board_relay_start(void);

#endif
