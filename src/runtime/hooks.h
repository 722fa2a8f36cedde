/*
 * hooks.h - what the runtime asks of the two families of handshakes above
 * it. The runtime may not name src/p2p/ or src/coll/ (the layers of
 * docs/design.md, enforced by tests/layers.sh); each family fills in its
 * part here when the library starts (mc_p2p_register, mc_coll_register,
 * called by core before the engine starts). The runtime calls them at the
 * same points, in the same order, as it called the functions by name before.
 */
#ifndef MPICHECK_HOOKS_H
#define MPICHECK_HOOKS_H

#include <stdint.h>
#include <mpi.h>
#include "call.h"
#include "runtime.h"

/* Point-to-point (src/p2p/): the parts of a request record's life that are
 * about messages, and the envelopes in flight. */
typedef struct {
    /* One record's progress (mirror, envelope check, deferred post): 1 when
     * the application's completion call may complete it now. */
    int (*prec_progress)(mc_prec *p);
    void (*recv_drive)(void);               /* posts deferred receives whose turn came */
    int (*recv_pending_deferred)(void);     /* wildcard receives wait to be posted */
    void (*recv_cancel)(mc_prec *p);        /* MPI_Cancel of a held-back receive */
    void (*recv_comm_freeing)(mc_pcomm *pc); /* its held-back receives go to MPI now */
    void (*env_reap)(int all);              /* frees finished envelope slots */
    void (*env_release)(mc_env_slot *s);    /* a record lets its slot go */
    int (*env_slot_done)(mc_env_slot *s);   /* tests one slot now */
    int (*env_unacked)(void);               /* envelopes sent that no mirror took yet */
    /* The program's completion call completed p; chosen: a call that may
     * complete another request or none instead (MPI_Test*, MPI_Waitany,
     * MPI_Waitsome). */
    void (*completed)(mc_prec *p, int chosen);
    /* Strict mode's model of synchronous sends across a blocking
     * collective (p2p/synccoll.c): whether this member enters it with
     * dependencies to tell; when any member did (the combined record says
     * so on every member), the reduction every member starts on flat after
     * a clean handshake (mine and all: MC_COLL_DEPS_BYTES each), and what
     * it learns from the result once it completed (c: the collective). */
    int (*coll_deps_enter)(mc_pcomm *pc, int blocking);   /* 0, 1 or MC_COLL_DEPS_OFF */
    /* The model of synchronous sends follows this rank no further: a
     * member of its collective is not followed, or it uses a channel the
     * model does not follow (engine lock held). */
    void (*sync_off)(void);
    int (*coll_deps_start)(MPI_Comm comm, MPI_Comm flat, void *mine, void *all, MPI_Request *req);
    void (*coll_deps_end)(MPI_Comm comm, const void *all, const mc_call *c);
    /* An envelope no receive matched before MPI_Finalize. */
    void (*lost_report)(mc_pcomm *pc, const mc_env *e, int source, long repeats);
} mc_p2p_hooks;
#define MC_COLL_DEPS_BYTES 96
#define MC_COLL_DEPS_OFF 2

/* Collective handshakes (src/coll/): communicator ids, handshakes still
 * running, the collectives a deadlock detection must know of. */
typedef struct {
    const int *npending;                    /* nonblocking handshakes running (service polls them) */
    void (*service)(void);
    void (*finalize)(void);
    void (*unmatched)(void);                /* MPI_Finalize, every rank there (coll/unmatched.c) */
    void (*comm_predefined)(mc_pcomm *pc, int self);
    void (*comm_created)(mc_call *c, mc_pcomm *pc);
    void (*comm_ready)(mc_pcomm *pc);
    void (*comm_freed)(mc_pcomm *pc);
    void (*release_comm)(MPI_Comm *comm);   /* frees a checker-made communicator, now or later */
    void (*free_retired)(void);
    int (*started_keys)(uint64_t *out, int max);
    void (*describe_members)(mc_pcomm *pc, uint64_t key, mc_waitfor *w);
    /* A held nonblocking collective's progress (coll/held.c): starts it once
     * its handshake ended, completes the program's request once MPI's ended. */
    int (*held_progress)(mc_prec *p);
} mc_coll_hooks;

extern mc_p2p_hooks mc_p2p_hook;
extern mc_coll_hooks mc_coll_hook;

/* Whether both families have registered (the engine does not start without). */
int mc_hooks_complete(void);

#endif
