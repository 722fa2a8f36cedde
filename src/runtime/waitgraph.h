/*
 * waitgraph.h - which blocked ranks can still be released: the verdict of
 * the deadlock detector, as pure logic (no MPI), unit-tested in
 * tests/unit/test_waitgraph.c.
 *
 * Each rank is one node. A blocked rank waits for an AND of clauses; a clause
 * is an OR of ranks (any one of them can release it), or, with length -1,
 * "every rank that is not in MPI_Finalize" (MPI_Finalize waits for all).
 * A rank whose program runs several threads, every one of them blocked in
 * MPI (or joining one that is), waits for an OR of such waits, one per
 * blocked thread (alternatives): one released thread can make any call
 * its rank's other threads wait for. A
 * rank that did not answer, is not blocked, or waits on something the engine
 * cannot see (unknown) counts as able to move. The released set is the least
 * fixpoint grown from those: a blocked rank is released when each of its
 * clauses holds a released rank. Blocked ranks outside it are deadlocked:
 * none of them can ever move, and nobody outside can move them.
 */
#ifndef MPICHECK_WAITGRAPH_H
#define MPICHECK_WAITGRAPH_H

#include <stdint.h>

typedef struct {
    int answered;           /* replied to the query */
    int blocked;            /* in the engine's wait loop */
    int unknown;            /* waits on requests the engine cannot see */
    int relaxable;          /* misses only strict-mode acknowledgments */
    int in_finalize;        /* waits in MPI_Finalize */
    int nclauses;
    const int *clause_len;  /* nclauses entries; -1: every rank not in MPI_Finalize */
    const int *ranks;       /* the clauses' ranks, concatenated */
    int nranks;
    /* Collectives: clause_key[c] (NULL: all 0) names a collective instance;
     * a rank of that clause that started the instance (its started list
     * holds the key) holds the clause too: it waits in the same collective,
     * and the collective completes once every member started it. */
    const uint64_t *clause_key;
    const uint64_t *started;
    int nstarted;
    /* Threads: alt_len[a] clauses (consecutive, from the first) make the
     * wait of blocked thread a; the rank is released when every clause of
     * one alternative holds. nalts 0 (alt_len NULL): one wait, all clauses. */
    int nalts;
    const int *alt_len;
} mc_wg_node;

/* Fills released[0..n-1] with 1 for ranks that can still move. With relax,
 * relaxable ranks count as moving (what buffering MPI does for them).
 * Ranks out of [0, n) in clauses are ignored. */
void mc_wg_released(const mc_wg_node *nodes, int n, int relax, char *released);

/* The lowest rank that lies on a wait-for cycle among the ranks not released
 * (edges: from a rank to every unreleased rank of its clauses), or -1. Every
 * rank that detects one deadlock agrees on it, whatever part of the graph it
 * saw, so the deadlock is reported once. */
int mc_wg_cycle_leader(const mc_wg_node *nodes, int n, const char *released);

/* Whether rank v waits directly for rank w, which is not released (an edge
 * of the wait-for graph drawn in reports). */
int mc_wg_waits_for(const mc_wg_node *nodes, int n, int v, int w, const char *released);

#endif
