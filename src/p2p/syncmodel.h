/*
 * syncmodel.h - strict mode's model of synchronous sends (syncmodel.c) and
 * the finding it makes (syncmodel_report.c); nothing else includes it.
 * docs/design.md, "Sends let go without their acknowledgment".
 */
#ifndef MPICHECK_SYNCMODEL_H
#define MPICHECK_SYNCMODEL_H

#include <stdint.h>
#include "p2p.h"

/* A send of the job: its sender's world rank and the sender's number. */
typedef struct {
    int32_t rank;
    uint32_t serial;
} mc_dep_id;

/* A call known by its function and call site (this rank's, or another
 * rank's as (module, offset), site.c), for the finding. */
typedef struct {
    int rank;               /* world rank that made it */
    int fn;                 /* enum mc_fn */
    int fortran;
    const void *caller;     /* this rank's call site, or NULL ... */
    uint64_t site_mod, site_off;    /* ... another rank's */
    int peer, tag;          /* world rank of the other end (-1: any), tag */
    int coll;               /* 1: a collective (no peer, no tag) */
} mc_dep_call;

#define MC_DEP_MAX 32        /* entries of D; the oldest learned one makes room */
#define MC_DEP_TOLD 8        /* ranks an entry is told to, each way */
#define MC_DEP_WIRE 8        /* entries one message of the model carries */

/* How a learned entry came: a notice, the data, a blocking collective. */
enum { MC_DEP_NOTICE = 1, MC_DEP_DATA = 2, MC_DEP_COLL = 3 };

/* An entry of D: in the synchronous model, whatever this rank does after
 * its event "from" (receives posted, sends started) happens only once
 * send id was received. How it was learned: from a notice (this rank's
 * send, whose receive on the other rank was posted while that rank
 * depended on id), or from the data (another rank's send, started while
 * it depended on id, and this rank's receive of it). */
typedef struct {
    mc_dep_id id;
    uint64_t from;          /* events so far when it entered D */
    double since;           /* when it entered D (learned ones expire) */
    int own;                /* this rank's own send, let go unacknowledged ... */
    MPI_Comm comm;          /* ... on this communicator, its envelope in slot while slot->gen == gen */
    mc_env_slot *slot;
    uint32_t gen;
    int quick;              /* own: let go without waiting, as its call site no longer waits */
    uint64_t acked_at;      /* own, not quick: events when its acknowledgment was seen (0: not yet) */
    int kind;               /* learned: MC_DEP_NOTICE, MC_DEP_DATA or MC_DEP_COLL */
    mc_dep_call send;       /* own: that send; learned: the send that brought it (none: a collective) */
    mc_dep_call via;        /* learned: the receive that matched that send, or the collective */
    MPI_Comm told_coll;     /* the communicator whose collective told it last (synccoll.c) */
    int told_notice[MC_DEP_TOLD], ntold_notice;     /* ranks told of it already, */
    int told_data[MC_DEP_TOLD], ntold_data;         /* a message each way at most */
} mc_dep_entry;

/* A receive of this rank whose mirror matched an envelope. */
typedef struct {
    mc_dep_id id;           /* the send it took */
    uint64_t posted;        /* its place in this rank's postings */
    mc_dep_call recv;       /* the receive */
    mc_dep_call send;       /* the send, as its envelope tells it */
} mc_dep_matched;

/* syncmodel.c: whether the model follows this rank on pc now. */
int mc_sync_modelled(const mc_pcomm *pc);

/* syncdeps.c: the set D (mc_deps[0 .. mc_ndeps-1]) and the model's clock
 * (receives posted and sends started so far). */
extern mc_dep_entry mc_deps[MC_DEP_MAX];
extern int mc_ndeps;
extern uint64_t mc_dep_events;
int mc_dep_same(mc_dep_id a, mc_dep_id b);
mc_dep_entry *mc_dep_find(mc_dep_id id);
void mc_dep_remove(int i);
mc_dep_entry *mc_dep_add(void);                 /* NULL: no room */
/* The acknowledgment of own entry i was seen now; before D is told, the
 * acknowledgments MPI has for own entries. */
void mc_dep_seen_acked(int i);
void mc_dep_prune_acked(void);
int mc_dep_in_at(const mc_dep_entry *d, uint64_t e);   /* d was in D at event e */
/* The next place for a matched receive (the last 64 are kept); entry di
 * against them (reports a cycle and drops it); what another rank told:
 * ids from this rank's event "from" on, brought by send and via. */
mc_dep_matched *mc_dep_match_slot(void);
void mc_dep_check_matched(int di);
void mc_dep_learn(const mc_dep_id *ids, int n, uint64_t from, int kind, const mc_dep_call *send,
                  const mc_dep_call *via);
/* Whether d may be told to rank now (*now: the time, taken once when
 * needed); whether rank was told already from list (marks it). */
int mc_dep_may_tell(const mc_dep_entry *d, int rank, double *now);
int mc_dep_told(int *list, int *n, int rank);

/* syncmodel_report.c: a potential deadlock the model found: receive m took
 * the send of entry d, which this rank depended on when it posted m. */
void mc_dep_report(const mc_dep_matched *m, const mc_dep_entry *d);

#endif
