/*
 * coll_internal.h - what the files of src/coll/ share: one handshake in
 * progress, and the parts of a member's record.
 */
#ifndef MPICHECK_COLL_INTERNAL_H
#define MPICHECK_COLL_INTERNAL_H

#include <stdint.h>
#include <mpi.h>
#include "coll.h"
#include "hooks.h"     /* MC_COLL_DEPS_BYTES */
#include "stack.h"

/* What one member sends to or receives from one peer. */
typedef struct {
    int64_t hash;       /* signature hash of count x datatype */
    int64_t bytes;
    int64_t nosig;      /* MPI_PACKED or unknown types: bytes only */
    int64_t valid;      /* 0: could not be read; never compared */
} mc_part;

/* Stages of a handshake. */
enum { HS_REDUCE, HS_VEXCH, HS_REDUCE2, HS_DSIZE, HS_DDATA, HS_DEPS, HS_DONE };


/* hs_p2p.c: collectives a communicator has before its handshakes go by
 * point-to-point; the largest MPI_Allreduce whose data rides in its
 * handshake (bytes). */
#define MC_HS_TWIN_AFTER 32
#define MC_HS_FOLD_MAX 256
enum { MC_HS_P2P_NO = 0, MC_HS_P2P_RUNNING, MC_HS_P2P_FAILED };

typedef struct hs {
    int stage;
    int queued;             /* its first reduction waits behind an idup of the shadow (shadow_queue.c) */
    MPI_Request req;
    const mc_coll_fn *f;
    int fn;
    mc_call *call;          /* blocking: the call, alive while the handshake runs */
    MPI_Comm comm, flat, shadow;
    int inter, group, comm_rank, flat_rank, flat_size, npeers;
    int root_arg;           /* the root argument as given (-1: none) */
    uint64_t key;           /* (communicator id, collective number): the instance */
    mc_collrec mine, all;
    unsigned verdict;
    int clean;              /* the handshake ran to its end and every member's call matched */
    uint64_t own_bytes;     /* per-peer counts: this member's bytes (mc_coll_volume) */
    int local_misuse;       /* an MPI_IN_PLACE misuse was reported here */
    int vbad;               /* this member's part differs from its peer's expectation */
    char vnote[160];
    mc_part *vsend, *vrecv; /* v-variant exchange buffers */
    /* Neighbor collectives (neighbor.c): the exchange runs on the twin. */
    MPI_Comm twin;          /* topology copy of the shadow; MPI_COMM_NULL: none */
    int nin, nout;          /* in- and out-degree: vrecv holds 2 x nin parts, vsend nout */
    const int *nsrc;        /* in-neighbors' ranks, in neighbor order (MPI_PROC_NULL possible) */
    const int *nord;        /* in-edge indices ordered by in-neighbor (edges from one process together) */
    mc_part vgot;           /* rooted v-variant: what the root expects of this member */
    /* Details, only when the members disagree. */
    int dlen;
    char *dmine, *dall;
    int *dlens, *ddispls;
    /* Nonblocking and persistent: the call as it was, for the report. */
    char summary[256];
    mc_origin origin;
    const void *caller;
    struct hs *next;
    /* The first reduction by point-to-point on the communicator's copy
     * (hs_p2p.c) instead of MPI_Iallreduce on the shadow. */
    int p2p;                /* MC_HS_P2P_*: running that way, or failed with requests maybe in MPI's hands */
    int p2p_used;           /* 1: its first reduction went that way */
    MPI_Comm p2p_comm;
    int p2p_op, p2p_nops, p2p_tag;
    MPI_Request p2p_req[2];
    struct { int peer; unsigned char step, send, recv, replace; } p2p_ops[34];
    /* What travels: the record, then (MPI_Allreduce folded into its
     * handshake) the data reduced so far. */
    int p2p_fold;           /* 1: this member's data rides along */
    int p2p_nsend;          /* int64 values sent: the record, plus the data when folded */
    int64_t p2p_acc[MC_CR_INTRA_SLOTS + MC_HS_FOLD_MAX / 8];
    int64_t p2p_in[MC_CR_INTRA_SLOTS + MC_HS_FOLD_MAX / 8];
    /* Blocking, after a clean verdict: some member has dependencies of
     * strict mode's model of synchronous sends to tell (MC_CR_DEPS), and
     * the reduction that tells them (p2p/synccoll.c). */
    int deps;
    int64_t deps_mine[MC_COLL_DEPS_BYTES / 8], deps_all[MC_COLL_DEPS_BYTES / 8];
} hs_t;

mc_part mc_part_of(MPI_Datatype t, MPI_Count n);
int mc_part_differs(mc_part have, mc_part want);
void mc_part_note(hs_t *h, mc_part have, mc_part want, const char *whose);
void mc_rec_send(mc_collrec *r, int g, mc_part p);
void mc_rec_recv(mc_collrec *r, int g, mc_part p);
MPI_Count mc_arg_count(const mc_call *c, int i);
MPI_Count mc_arg_count_at(const mc_coll_fn *f, const mc_call *c, int i, int k);
MPI_Datatype mc_arg_type_at(const mc_coll_fn *f, const mc_call *c, int i, int k);
/* Fills r with this member's record of call c (and reports MPI_IN_PLACE misuse). */
void mc_rec_build(mc_call *c, const mc_coll_fn *f, hs_t *h, mc_collrec *r);

/* v-variants' second look (vexch.c): whether it runs (from the combined
 * record, the same on every member); the parts, computed in the call (the
 * count arrays are the application's); the exchange; its judgment (sets
 * h->vbad and h->vnote). */
int mc_vexch_runs(const hs_t *h);
void mc_vexch_prepare(mc_call *c, hs_t *h);
int mc_vexch_start(hs_t *h);
void mc_vexch_judge(hs_t *h);

/* The handshake's report (hs_report.c): the summary of the call, taken in
 * it; gathering every member's details to the member of rank 0 (two
 * stages); that member's finding, in full or (nonblocking calls, one
 * stage) from the reduction alone. */
void mc_hs_summarize(hs_t *h, const mc_call *c);
/* Puts handshake records aside (at start) for collectives met when the
 * checker's memory has run out (handshake.c). */
void mc_hs_reserve_fill(void);
int mc_hs_start_details(hs_t *h);
int mc_hs_start_details_data(hs_t *h);
void mc_hs_write_finding(hs_t *h);
void mc_hs_write_short_finding(hs_t *h);

/* The handshakes' point-to-point reduction (hs_p2p.c). A communicator
 * that has had MC_HS_TWIN_AFTER collectives gets a copy of its shadow; once
 * a clean blocking handshake shows every member has it, the first
 * reduction of its later handshakes is a recursive-doubling exchange of
 * the record on that copy (one round trip at 2 ranks, where MPI_Iallreduce
 * costs three times as long in both MPIs). */
/* In the handshake's call, after coll_seq counted it: starts the copy at
 * the collective that reaches MC_HS_TWIN_AFTER; puts this member's
 * MC_CR_TWIN_WAIT into its record (blocking: tests the copy first). */
void mc_hs_p2p_enter(struct mc_pcomm *pc, hs_t *h, int blocking);
/* Starts h's first reduction that way; 0 when it runs, else MPI's code. */
int mc_hs_p2p_start(hs_t *h, struct mc_pcomm *pc);
/* Drives it: 1 done (h->all holds the combined record), 0 not yet, -1 failed. */
int mc_hs_p2p_progress(hs_t *h);
/* Whether h's call needs no real call after its handshake by
 * point-to-point, which ended clean: an MPI_Barrier (the exchange has
 * synchronized every member: no member ends it before every member's record
 * reached it, which is all MPI_Barrier promises), or an MPI_Allreduce every
 * member folded into it (the result is copied to its receive buffer). */
int mc_hs_p2p_synced(const hs_t *h);
/* After a clean blocking handshake: from now on that way, when every member
 * said its copy is ready. */
void mc_hs_p2p_after(struct mc_pcomm *pc, const hs_t *h);
/* Waits until a copy started has been made (MPI_Finalize, frees). */
void mc_hs_p2p_wait(struct mc_pcomm *pc);
/* The application frees the communicator: its copy goes too (once made). */
void mc_hs_p2p_comm_freed(struct mc_pcomm *pc);

/* Neighbor collectives (neighbor.c). A topology communicator gets a twin
 * when it is made: the same topology over its shadow. */
void mc_nbr_comm_created(mc_call *c, struct mc_pcomm *pc);
void mc_nbr_comm_freed(struct mc_pcomm *pc);
/* handshake.c: whether a handshake still running uses comm. */
int mc_coll_comm_busy(MPI_Comm comm);
void mc_nbr_finalize(void);
/* A blocking neighbor collective: this member's part for each out-edge and
 * its expectation for each in-edge, computed in the call. 0 when it cannot
 * take part in the exchange (no twin, no memory, bad arguments). */
int mc_nbr_prepare(mc_call *c, hs_t *h, struct mc_pcomm *pc);
/* The exchange along the twin's edges, and its judgment (sets h->vbad). */
int mc_nbr_start(hs_t *h);
void mc_nbr_judge(hs_t *h);

/* parts.c: this member of a collective call, and the blocks of its send
 * or receive part. */
typedef struct {
    int inter, rank, lsize;
    int gsize;          /* the members it sends to or receives from (the remote group's size) */
    int rooted, is_root;
    int inactive;       /* MPI_PROC_NULL in an intercommunicator's root group */
} mc_member;
int mc_member_of(const mc_call *c, const mc_coll_fn *f, MPI_Comm comm, mc_member *m);

enum { MC_PART_SEND, MC_PART_RECV };
/* One block: count elements of datatype t at buf. */
typedef void (*mc_block_fn)(void *ctx, const void *buf, MPI_Count count, MPI_Datatype t);
/* Calls fn for each block of m's send or receive part (side) in call c.
 * 0, or -1 when the part cannot be told (arguments reported invalid,
 * MPI_Alltoallw, neighborhood collectives, intercommunicator
 * MPI_Reduce_scatter) or m takes no part. MPI_IN_PLACE: no blocks. */
int mc_coll_part(const mc_call *c, const mc_coll_fn *f, const mc_member *m, int side,
                 mc_block_fn fn, void *ctx);
/* About the bytes a member of h's call moves in the real call, once the
 * handshake combined the records (0: not known): the hang watch's credit
 * for the call (runtime/rank_board.h, hang_rule.h), an upper estimate.
 * For calls with per-peer counts (mc_coll_per_peer) it is h->own_bytes,
 * this member's own blocks (mc_coll_own_bytes), taken at the call. */
uint64_t mc_coll_volume(const hs_t *h);
int mc_coll_per_peer(const mc_coll_fn *f);
uint64_t mc_coll_own_bytes(const mc_call *c, const mc_coll_fn *f, MPI_Comm comm);

/* handshake.c: the nonblocking handshakes still running (a list through
 * ->next), and how many have ended so far. */
hs_t *mc_hs_pending(void);
extern long long mc_hs_nended;
/* unmatched.c: MPI_Finalize, every rank there: reports the collectives
 * whose handshakes cannot end because a member never called them. */
void mc_coll_unmatched(void);

/* bufoverlap.c: buffer-overlap between the send and receive parts of the
 * collective call c, before it runs. */
void mc_coll_check_overlap(mc_call *c, const mc_coll_fn *f, MPI_Comm comm);


#endif
