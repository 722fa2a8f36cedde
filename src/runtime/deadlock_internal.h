/*
 * deadlock_internal.h - what the deadlock detector (deadlock.c), the asked
 * side (deadlock_answer.c) and the report (deadlock_report.c) share: the
 * messages, a rank's answer, this rank's wait, the detector's view of one
 * rank.
 */
#ifndef MPICHECK_DEADLOCK_INTERNAL_H
#define MPICHECK_DEADLOCK_INTERNAL_H

#include <stdint.h>
#include "runtime_internal.h"
#include "waitgraph.h"

#define TAG_QUERY 7101
#define TAG_REPLY 7102
#define TAG_RELAX 7103
#define TAG_HINT 7104     /* "you lead a deadlock I found: detect now" */
#define REPLY_MAGIC 0x4d43444cu
#define DETAILS_MAX 6000
#define BROADCAST_MAX 1024   /* ranks asked at once by a detection */

typedef struct {
    uint32_t magic;
    int32_t id, rank, blocked, epoch, relaxable, in_finalize, unknown, nclauses, nranks, details_len;
    int32_t nstarted, hint_len;     /* hint: near misses of its receive (near_miss.c), after details */
    int32_t nalts;                  /* blocked threads, each with its clauses (waitgraph.h); 0: one */
} reply_hdr;

typedef struct {
    int state;              /* 0 not asked, 1 asked, 2 answered */
    reply_hdr h;
    int *clause_len, *ranks, *alt_len;
    uint64_t *clause_key, *started;
    char *details;
    char *hint;
} node;

/* A thread's wait while it is blocked in the engine (deadlock_answer.c):
 * one per program thread that waits (one in all under every thread level
 * but MPI_THREAD_MULTIPLE). Engine lock. */
#define MC_DL_THREADS 32
#define MC_DL_PCS 32
typedef struct {
    mc_call *call;
    mc_ready_fn ready;
    mc_describe_fn describe;
    void *ctx;
    int blocked;
    int tid;                /* gettid(), with several threads of the program */
    char name[16];
    int npcs;               /* its stack, taken by the thread itself once the wait is slow */
    uintptr_t pcs[MC_DL_PCS];
    int preset;             /* pcs is the stack of the call waited for, taken when it was made */
} mc_dl_wait_state;
extern mc_dl_wait_state mc_dl_waits[MC_DL_THREADS];
/* Changes at every wait's start and end in this rank: a second round must
 * see the same. */
extern int mc_dl_epoch;
/* The calling thread's wait (NULL outside one). */
mc_dl_wait_state *mc_dl_mine(void);
/* Whether this rank is blocked for the detector: a thread waits in the
 * engine, and no thread of the program could make the call that releases
 * it (every one waits in the engine or joins another; under any thread
 * level but MPI_THREAD_MULTIPLE, no other thread may call MPI meanwhile). */
int mc_dl_rank_blocked(void);
extern int mc_dl_gathering;     /* replies belong to a running detection */
extern int mc_dl_stale_replies; /* a detection ended with ranks still to answer */

/* Takes the detector for this thread (deadlock_answer.c): 1 taken, 0 this
 * thread holds it already, -1 busy (only without wait). mc_dl_leave gives
 * back what mc_dl_enter returned. */
int mc_dl_enter(int wait);
void mc_dl_leave(int entered);
/* Sends bytes to a rank on the checker's world copy without waiting. */
void mc_dl_send_bytes(const void *data, int len, int dest, int tag);
extern long mc_dl_received;     /* the detector's messages received (the Finalize drain) */

/* For a deadlock report (near_miss.c): messages that came close to matching
 * the receive c waits in, but differ in tag, source or communicator (the
 * envelopes no receive took, on the checker's shadows), as one sentence
 * into out ("" when none). */
void mc_dl_near_miss(const mc_call *c, char *out, size_t len);
/* The hint of a rank blocked in a collective: this prefix, the
 * communicator's id (16 hex digits), ':' and its name. */
#define MC_DL_COLL_HINT "coll:"

/* The answers as the verdict's graph (waitgraph.c); the arrays are borrowed. */
mc_wg_node *mc_dl_graph_of(node *nodes);

/* Writes the one finding for a deadlock (or a potential deadlock) found by
 * this rank, which leads it: nodes are the first round's answers, again
 * the second round's (with each rank's call), released the ranks that can
 * still move. Also writes the DOT graph for --graph. */
void mc_dl_report_found(node *nodes, node *again, const char *released, int leader, int potential,
                        const mc_call *c);

#endif
