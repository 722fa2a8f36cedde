/*
 * coll.h - collective handshakes (issue 4): before a collective runs, its
 * members compare what they called with one fixed-size reduction on the
 * communicator's shadow (collrec.h), polled with the timeout like every
 * blocking point of the p2p engine. docs/design.md ("Collective handshakes")
 * explains the method.
 */
#ifndef MPICHECK_COLL_H
#define MPICHECK_COLL_H

#include <stdint.h>
#include <mpi.h>
#include "call.h"
#include "module.h"
#include "collrec.h"

/* Families of collectives: what their arguments mean. */
enum {
    MC_SH_NONE = 0,
    MC_SH_BARRIER,      /* no data: also every call that is collective over a communicator */
    MC_SH_BCAST,
    MC_SH_GATHER, MC_SH_GATHERV, MC_SH_SCATTER, MC_SH_SCATTERV,
    MC_SH_ALLGATHER, MC_SH_ALLGATHERV, MC_SH_ALLTOALL, MC_SH_ALLTOALLV, MC_SH_ALLTOALLW,
    MC_SH_REDUCE, MC_SH_ALLREDUCE, MC_SH_SCAN, MC_SH_EXSCAN,
    MC_SH_REDUCE_SCATTER, MC_SH_REDUCE_SCATTER_BLOCK,
    MC_SH_NEIGHBOR      /* neighbor collectives: the operation in the reduction; parts per edge (neighbor.c) */
};

/* Which neighbor collective (mc_coll_fn.nbr): what its parts per edge are. */
enum { MC_NBR_NONE = 0, MC_NBR_ALLGATHER, MC_NBR_ALLGATHERV, MC_NBR_ALLTOALL, MC_NBR_ALLTOALLV,
       MC_NBR_ALLTOALLW };

enum { MC_VAR_BLOCKING = 0, MC_VAR_NONBLOCKING, MC_VAR_PERSISTENT };

/* What the handshake needs to know of one MPI function. Argument indices
 * are -1 when the function has no such argument. */
typedef struct {
    int shape;          /* MC_SH_* */
    int variant;        /* MC_VAR_* */
    int family;         /* the function's name without I, _init, _c: compared across members */
    int large;          /* the _c form: counts are MPI_Count, arrays MPI_Count[] */
    int nbr;            /* MC_NBR_*: a neighbor collective */
    int a_comm;         /* the communicator (or MPI_Comm * for Comm_free/disconnect) */
    int comm_ptr;       /* a_comm points to the handle */
    int a_sbuf, a_scount, a_stype, a_rbuf, a_rcount, a_rtype, a_root, a_op;
} mc_coll_fn;

/* The description of fn, or NULL when fn is not collective. */
const mc_coll_fn *mc_coll_fn_of(int fn);
/* Builds the table from the generated function table (once). */
void mc_coll_table_init(void);
/* "MPI_Bcast" for a family id. */
const char *mc_coll_family_name(int family);

/* The wrapper hook: runs the handshake of a collective call before its real
 * call (blocking calls wait for it; nonblocking and persistent ones start
 * it and it finishes in the background). */
void mc_coll_enter(mc_call *c);
/* The wrapper hook after the real call (rc == MPI_SUCCESS): a nonblocking
 * collective's handshake is tied to the request MPI handed out. */
void mc_coll_leave(mc_call *c);
/* Polls the handshakes still running (from the engine's service). */
void mc_coll_service(void);
/* MPI_Finalize: finishes or abandons what is still running. */
void mc_coll_finalize(void);
/* Whether handshakes of nonblocking collectives are still running. */
extern int mc_coll_npending;

/* Held nonblocking collectives (held.c): started once their handshake
 * ended. mc_coll_may_hold: whether c may be (decided in mc_coll_enter);
 * mc_coll_hold: the wrapper's call instead of the real one (the program
 * gets a generalized request; the values of c are kept for start);
 * mc_coll_held_flush: starts those on comm (MPI_COMM_NULL: all) now, in
 * call order; mc_coll_held_drive: starts those whose handshake ended
 * (from the service); mc_coll_held_progress: one request's progress. */
struct mc_prec;
extern int mc_coll_nheld;
int mc_coll_may_hold(const mc_call *c, MPI_Comm comm);
int mc_coll_hold(mc_call *c, mc_start_fn start, MPI_Request *request);
void mc_coll_held_flush(MPI_Comm comm);
void mc_coll_held_drive(void);
int mc_coll_held_progress(struct mc_prec *p);
/* Frees a communicator the checker made (a shadow, a merge) when the
 * application frees its own: now, or when the handshakes still running on
 * it have ended. Sets *comm to MPI_COMM_NULL. */
void mc_coll_release_comm(MPI_Comm *comm);
/* Frees the released communicators nothing of the checker's uses any more
 * (after a handshake or a shadow copy ended). */
void mc_coll_free_retired(void);

/* Communicator ids and handshake communicators (commid.c). */
struct mc_pcomm;
void mc_coll_comm_predefined(struct mc_pcomm *pc, int self);
void mc_coll_comm_created(mc_call *c, struct mc_pcomm *pc);
void mc_coll_comm_ready(struct mc_pcomm *pc);
void mc_coll_comm_freed(struct mc_pcomm *pc);

/* For the deadlock detector (runtime/deadlock_answer.c). The keys of the
 * collectives this rank has joined (running handshakes and held requests);
 * returns how many there are, which may exceed max. */
int mc_coll_started_keys(uint64_t *out, int max);
/* Adds to w the members of the collective with key on pc that have not
 * joined it yet. */
struct mc_waitfor;
void mc_coll_describe_members(struct mc_pcomm *pc, uint64_t key, struct mc_waitfor *w);

/* Hands the runtime what it asks of the collective handshakes (hooks.h). */
void mc_coll_register(void);
/* The collective handshakes as one module of core's list (module.h). */
extern const mc_module mc_coll_module;

#endif
