/*
 * collrec.h - the record every member of a collective contributes to its
 * handshake, and the verdict on the combined record. No MPI here: the record
 * is a vector of 64-bit integers that handshake.c combines with one
 * MPI_MAX reduction; everything below is unit-tested without MPI
 * (tests/unit/test_collrec.c).
 *
 * RATIONALE: MPI-CHECK's collective handshake sends every member's
 * arguments to rank 0 (p-1 messages per collective at one rank, the memory
 * spike of seed 003). Here each field f of the record travels as two slots,
 * (v, -v), reduced with MPI_MAX: afterwards every member holds the largest
 * and the smallest value any member gave, and min == max says all agreed.
 * The message is the same fixed size at every scale, and every member learns
 * the verdict at once. A member that has nothing to say about a field (a
 * non-root's send part of an MPI_Scatter) leaves both slots at
 * MC_CR_NONE, which the maximum ignores. Only when fields disagree do the
 * members send their details (to one rank, once).
 *
 * Intercommunicators: the handshake runs on the merge of the two groups, and
 * the data fields come per group (g = 0, 1), so that group 0's send parts
 * can be compared with group 1's receive parts and the other way round.
 */
#ifndef MPICHECK_COLLREC_H
#define MPICHECK_COLLREC_H

#include <stdint.h>

#define MC_CR_NONE INT64_MIN

/* Fields. Those an intracommunicator's collective uses come first, so its
 * handshake reduces only MC_CR_INTRA_FIELDS of them (24 values instead of
 * 48). Data fields of group g: MC_CR_G(MC_CR_SEND_HASH, g); root fields of
 * group g (intercommunicators only): MC_CR_RCLASS + g, ... */
enum {
    MC_CR_KIND = 0,         /* collective family x variant (blocking, nonblocking, persistent) */
    MC_CR_ROOT,             /* intracommunicator: the root argument */
    MC_CR_OP,               /* reduction operation id (op_id in record.c) */
    MC_CR_INPLACE,          /* 1/0: MPI_IN_PLACE given, where all members must agree */
    MC_CR_NOSIG,            /* 1: some part holds MPI_PACKED or unknown types: compare bytes only */
    MC_CR_VBAD,             /* 1: a member found its part differs from what its peer expects */
    MC_CR_NOVEX,            /* 1: a member cannot take part in a v-variant's exchange (bad arguments) */
    MC_CR_ONESTAGE,         /* 1: a member runs the reduction only (nonblocking, persistent) */
    MC_CR_TWIN_WAIT,        /* 1: a member's point-to-point copy for handshakes is not ready (hs_p2p.c); never a mismatch */
    MC_CR_FOLD,             /* 1: a member's MPI_Allreduce or MPI_Bcast data rides in its handshake (hs_p2p.c); never a mismatch */
    MC_CR_FOLD_ROOT,        /* 1: the data after the record is an MPI_Bcast root's (hs_p2p.c); never a mismatch */
    MC_CR_DEPS,             /* the model of synchronous sends: 1 a member has dependencies to tell, 2 one is not followed; never a mismatch */
    MC_CR_SEND_HASH,        /* signature hash of one part group 0 sends */
    MC_CR_SEND_BYTES,       /* bytes of that part */
    MC_CR_RECV_HASH,        /* signature hash of one part group 0 receives */
    MC_CR_RECV_BYTES,
    MC_CR_INTRA_FIELDS,
    MC_CR_SEND_HASH_1 = MC_CR_INTRA_FIELDS,     /* the same four for group 1 */
    MC_CR_SEND_BYTES_1,
    MC_CR_RECV_HASH_1,
    MC_CR_RECV_BYTES_1,
    MC_CR_RCLASS,           /* + g, intercommunicator roots: 0 MPI_ROOT, 1 MPI_PROC_NULL, 2 a rank */
    MC_CR_RCLASS_1,
    MC_CR_ROOTER,           /* + g: world rank of a member that gave MPI_ROOT */
    MC_CR_ROOTER_1,
    MC_CR_ROOTRANK,         /* + g: that member's rank in its group */
    MC_CR_ROOTRANK_1,
    MC_CR_RROOT,            /* + g: the root rank the other group's members gave */
    MC_CR_RROOT_1,
    MC_CR_NFIELDS
};

/* Data field f (MC_CR_SEND_HASH ... MC_CR_RECV_BYTES) of group g. */
#define MC_CR_G(f, g) ((g) ? (f) - MC_CR_SEND_HASH + MC_CR_SEND_HASH_1 : (f))

#define MC_CR_SLOTS (2 * MC_CR_NFIELDS)
#define MC_CR_INTRA_SLOTS (2 * MC_CR_INTRA_FIELDS)

typedef struct {
    int64_t slot[MC_CR_SLOTS];  /* slot[2f] = max, slot[2f+1] = -min */
} mc_collrec;

/* Every field absent. */
void mc_collrec_init(mc_collrec *r);
/* Adds a value to field f (a member may give several values to one field:
 * the root of MPI_Gather gives its receive part and its own send part).
 * Values must lie in (INT64_MIN, INT64_MAX]; hashes are cut to 62 bits. */
void mc_collrec_put(mc_collrec *r, int f, int64_t v);
/* Combines b into a (what MPI_MAX does slot by slot). */
void mc_collrec_merge(mc_collrec *a, const mc_collrec *b);
/* Whether any member gave field f, and its smallest and largest value. */
int mc_collrec_get(const mc_collrec *r, int f, int64_t *min, int64_t *max);

/* What a combined record says is wrong (bits). */
enum {
    MC_CM_KIND = 1u << 0,       /* different collectives, or blocking against nonblocking */
    MC_CM_ROOT = 1u << 1,       /* different roots (intercommunicator: no single MPI_ROOT, ...) */
    MC_CM_OP = 1u << 2,         /* different reduction operations */
    MC_CM_INPLACE = 1u << 3,    /* MPI_IN_PLACE at some members only, where all must give it */
    MC_CM_TYPE = 1u << 4,       /* type signatures differ (same byte counts) */
    MC_CM_SIZE = 1u << 5,       /* amounts of data differ */
    MC_CM_VPART = 1u << 6       /* a v-variant's part differs from its peer's count */
};

/* The verdict on a combined record: MC_CM_* bits, 0 when all agree. inter:
 * the record of an intercommunicator collective (per-group data fields). */
unsigned mc_collrec_verdict(const mc_collrec *r, int inter);

/* Whether continuing into MPI after this verdict risks a hang, a crash or
 * memory written past buffers (different collectives, roots or sizes). */
int mc_collrec_unsafe(unsigned verdict);

/* "different collectives, different roots": the verdict's parts, joined. */
char *mc_collrec_describe(unsigned verdict, char *buf, unsigned long len);

/* A 62-bit mix of a and b: collective keys, communicator ids. Never 0. */
uint64_t mc_collrec_mix(uint64_t a, uint64_t b);

#endif
