/*
 * coll_internal.h - what the files of src/coll/ share: one handshake in
 * progress, and the parts of a member's record.
 */
#ifndef MPICHECK_COLL_INTERNAL_H
#define MPICHECK_COLL_INTERNAL_H

#include <stdint.h>
#include <mpi.h>
#include "coll.h"
#include "stack.h"

/* What one member sends to or receives from one peer. */
typedef struct {
    int64_t hash;       /* signature hash of count x datatype */
    int64_t bytes;
    int64_t nosig;      /* MPI_PACKED or unknown types: bytes only */
    int64_t valid;      /* 0: could not be read; never compared */
} mc_part;

/* Stages of a handshake. */
enum { HS_REDUCE, HS_VEXCH, HS_REDUCE2, HS_DSIZE, HS_DDATA, HS_DONE };


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

/* bufoverlap.c: buffer-overlap between the send and receive parts of the
 * collective call c, before it runs. */
void mc_coll_check_overlap(mc_call *c, const mc_coll_fn *f, MPI_Comm comm);


#endif
