/*
 * inter_internal.h - what the files of src/inter/ share: a small max/min
 * record reduced with one MPI_MAX (the collective handshake's trick,
 * collrec.h: each field travels as (v, -v)), the waits, and the leaders'
 * exchange (leaders.c).
 */
#ifndef MPICHECK_INTER_INTERNAL_H
#define MPICHECK_INTER_INTERNAL_H

#include <stdint.h>
#include <mpi.h>
#include "call.h"
#include "runtime.h"

#define IC_FIELDS 8
#define IC_NONE INT64_MIN

typedef struct {
    int64_t s[2 * IC_FIELDS];   /* s[2f] = max, s[2f+1] = -min; IC_NONE: nobody gave f */
} ic_rec;

void ic_rec_init(ic_rec *r);
void ic_rec_put(ic_rec *r, int f, int64_t v);       /* v > INT64_MIN */
int ic_rec_get(const ic_rec *r, int f, int64_t *lo, int64_t *hi);
void ic_rec_merge(ic_rec *a, const ic_rec *b);
/* Whether some gave f and all who did gave the same value. */
int ic_rec_uniform(const ic_rec *r, int f);

/* Reduces r (MPI_MAX) over comm in the engine's wait loop. 0 on success. */
int ic_reduce(mc_call *c, ic_rec *r, MPI_Comm comm);
/* Broadcasts one int from root over comm in the wait loop; this rank waits
 * for world rank waitee (-1: not known). 0 on success. */
int ic_bcast(mc_call *c, int *v, int root, MPI_Comm comm, int waitee);

/* The checker's messages about one creation (the group's world ranks and
 * the sender's call as text follow each). */
enum { IC_MAGIC = 0x4d434943u /* "MCIC" */ };
enum {
    IC_STAGE_LEADERS = 1,   /* leader to leader, before the real call */
    IC_STAGE_OUTCOME,       /* leader to leader, its group's outcome after it (create.c) */
    IC_STAGE_MEMBER,        /* member to its leader: what it passes (groups.c) */
    IC_STAGE_VERDICT        /* leader to member: IC_V_* (groups.c) */
};
typedef struct {
    uint32_t magic;
    int32_t stage;          /* IC_STAGE_* */
    int32_t world;          /* sender's world rank */
    int32_t tag;            /* the tag it passes */
    int32_t invalid;        /* its arguments failed the checks: nothing to compare */
    int32_t lsize;          /* its group's size: that many world ranks follow */
    int32_t textlen;        /* then its call as text, with the terminating 0 */
    int32_t verdict;        /* IC_STAGE_VERDICT: the leader's IC_V_* */
    int32_t lleader, rleader;   /* IC_STAGE_MEMBER: the leaders it names (ranks in its groups) */
    int64_t lhash, rhash;   /* IC_STAGE_MEMBER: its local and remote group, hashed */
    char stringtag[64];     /* MPI_Intercomm_create_from_groups: its stringtag, cut (groups.c) */
    ic_rec out;             /* IC_STAGE_OUTCOME: its group's outcome */
} ic_msg;

/* Sends m (with its ranks and text) to world rank peer and receives the
 * peer's message, waiting in the engine's wait loop: the deadlock detector
 * sees this rank wait for peer. Returns the peer's message (mc_malloc'd)
 * or NULL when MPI failed or the message is not one of ours. */
ic_msg *ic_exchange(mc_call *c, int peer, const ic_msg *m, const int32_t *ranks, const char *text);
/* Only the receiving half (NULL on failure), or only the sending half (0
 * once it is sent), in the same wait loop. */
ic_msg *ic_receive(mc_call *c, int peer);
int ic_send(mc_call *c, int peer, const ic_msg *m, const int32_t *ranks, const char *text);
/* The world ranks and text behind a received message. */
const int32_t *ic_msg_ranks(const ic_msg *m);
const char *ic_msg_text(const ic_msg *m);

/* World ranks of group g in its order (mc_malloc'd, n entries; MPI_UNDEFINED
 * for a process of another MPI_COMM_WORLD). NULL on failure. */
int32_t *ic_world_ranks(MPI_Group g, int *n);
/* A 62-bit hash of a list of world ranks, never IC_NONE. */
int64_t ic_ranks_hash(const int32_t *r, int n);
/* "0-3, 5": a list of world ranks, shortened. */
void ic_ranks_text(const int32_t *r, int n, char *buf, size_t len);

/* The verdict of the check before MPI_Intercomm_create(_from_groups). */
enum { IC_V_OK = 0, IC_V_UNCHECKED = 1, IC_V_MISMATCH = 2 };
#define IC_TEXT_MAX 6000

/* The other leader's call, for a report (mc_calloc'd; NULL without memory). */
mc_call_text *ic_their_call(const ic_msg *m);
/* A leader's mismatch found from its own arguments alone: reported here,
 * *writer set; returns IC_V_MISMATCH. */
int ic_mismatch_alone(mc_call *c, int *writer, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A world rank in both lists, or -1. */
int ic_shared_rank(const int32_t *a, int na, const int32_t *b, int nb);

/* After a finding that makes going on hang: the writer ends the job
 * (--abort-on-deadlock=yes), the others wait for that. */
void ic_after_mismatch(int writer, const char *why);

/* The outcome after MPI_Intercomm_create(_from_groups) (outcome.c):
 * fields of its record. */
enum { OUT_OK = 0, OUT_RHASH, OUT_LHASH, OUT_OKW, OUT_FAILW };
/* World ranks of comm's group (or remote group), as ic_world_ranks. */
int32_t *ic_comm_ranks(MPI_Comm comm, int remote, int *n);
/* This process's outcome: got the intercommunicator nc (1) or an error;
 * lhash: its local group's world ranks, hashed. */
void ic_outcome_mine(ic_rec *r, int got, int64_t lhash, MPI_Comm nc);
/* A leader with its group's record r: exchanges records with the other
 * leader (world rank peer_world; -1: none reachable), reports a split or
 * mismatched outcome (once, at the lower leader) and returns 1 then. */
int ic_outcome_leaders(mc_call *c, const ic_rec *r, int peer_world);

/* The modules's two halves. */
void ic_create_enter(mc_call *c);
void ic_create_leave(mc_call *c, int ok);
void ic_merge_enter(mc_call *c);
void ic_from_groups_enter(mc_call *c);
void ic_from_groups_leave(mc_call *c, int ok);
void ic_from_inter_leave(mc_call *c, int ok);
void ic_spawn_enter(mc_call *c);
void ic_spawn_leave(mc_call *c, int ok);

#endif
