/*
 * deadlock_internal.h - what the deadlock detector (deadlock.c) and its
 * report (deadlock_report.c) share: a rank's answer and the detector's view
 * of one rank.
 */
#ifndef MPICHECK_DEADLOCK_INTERNAL_H
#define MPICHECK_DEADLOCK_INTERNAL_H

#include <stdint.h>
#include "p2p.h"
#include "waitgraph.h"

typedef struct {
    uint32_t magic;
    int32_t id, rank, blocked, epoch, relaxable, in_finalize, unknown, nclauses, nranks, details_len;
    int32_t nstarted, pad_;
} reply_hdr;

typedef struct {
    int state;              /* 0 not asked, 1 asked, 2 answered */
    reply_hdr h;
    int *clause_len, *ranks;
    uint64_t *clause_key, *started;
    char *details;
} node;

/* The answers as the verdict's graph (waitgraph.c); the arrays are borrowed. */
mc_wg_node *mc_dl_graph_of(node *nodes);

/* Writes the one finding for a deadlock (or a potential deadlock) found by
 * this rank, which leads it: nodes are the first round's answers, again
 * the second round's (with each rank's call), released the ranks that can
 * still move. Also writes the DOT graph for --graph. */
void mc_dl_report_found(node *nodes, node *again, const char *released, int leader, int potential,
                        const mc_call *c);

#endif
