/*
 * skipped.h - checks the checker could not make, counted and shown in the
 * job report instead of dropped silently. A correctness gate that says
 * "no errors" must also say what it did not look at.
 *
 * Each rank counts (mc_skipped) and writes its counts in the "done" line of
 * its report part; the merge adds them up per check; the JSON report lists
 * them under summary.skipped and the summary line on stderr names them.
 */
#ifndef MPICHECK_SKIPPED_H
#define MPICHECK_SKIPPED_H

#include <stddef.h>

typedef enum {
    /* A communicator the checker has no private copy of: made by dynamic
     * processes (spawn, connect/accept, join, the parent), or its copy
     * could not be made. Its messages and collectives
     * are not checked. */
    MC_SKIP_UNCHECKED_COMM = 0,
    /* A collective whose handshake could not start (the checker's own
     * allocation or MPI call failed): that call was not compared. */
    MC_SKIP_COLL_HANDSHAKE,
    /* The checker's own memory ran out (an allocation failed): whatever it
     * was about to check at that point (a message's envelope, a wait, a
     * deadlock detection, an object's record, a report's text) was left
     * undone. Counted by the allocation functions below, so no call site
     * can forget it. */
    MC_SKIP_NO_MEMORY,
    /* A process whose MPI was started past the checker (a binding that
     * calls MPI's PMPI_Init directly, as mpi_f08 does with MPICH): the
     * checker did not set up, and checked nothing of it. */
    MC_SKIP_UNSEEN_INIT,
    MC_SKIP_COUNT_
} mc_skip_reason;

/* Counts one skipped check (thread-safe, no lock). */
void mc_skipped(mc_skip_reason why);
/* How many this process counted. */
long mc_skipped_count(mc_skip_reason why);
/* The name in the report ("unchecked-communicator"), and what it means
 * for people ("communicators made by ... whose messages and collectives
 * were not checked"). */
const char *mc_skipped_name(mc_skip_reason why);
const char *mc_skipped_what(mc_skip_reason why);

/* The checker's allocations, above util/ (every layer from report/ up uses
 * these, never malloc itself): malloc, calloc, realloc and strdup, and a
 * failure counts MC_SKIP_NO_MEMORY. For tests of those paths, once armed
 * (the library arms it at start, the launcher never),
 * MPICHECK_INTERNAL_TEST_ALLOC_FAIL=N makes every N-th allocation fail. */
void mc_alloc_test_arm(void);
void *mc_malloc(size_t size);
void *mc_calloc(size_t n, size_t size);
void *mc_realloc(void *p, size_t size);
char *mc_strdup(const char *s);
char *mc_strndup(const char *s, size_t n);

#endif
