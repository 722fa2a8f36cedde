/*
 * runtime.h - the runtime both families of handshakes stand on (issue 3,
 * issue 12): shadow communicators, the envelope format, the request records,
 * the wait loop, what a wait waits for, the deadlock detector, call sites and
 * the completion calls over engine-held requests. src/p2p/ (sends, receives,
 * probes) and src/coll/ (collective handshakes) are peers above it; the
 * runtime never names them: what it needs of them they register
 * (hooks.h). docs/design.md ("Point-to-point handshakes") explains the method.
 *
 * RATIONALE, in one paragraph: every send first sends an envelope (what is
 * sent, from where) on the communicator's shadow with the SAME destination
 * and tag; every receive posts a mirror receive on the shadow with the SAME
 * source and tag, in the same order as the real one. MPI's own matching then
 * pairs each envelope with the mirror of the receive that gets the message,
 * exactly as it pairs the messages (same per-source order, same posting
 * order): the engine never re-implements matching. Receives with
 * MPI_ANY_SOURCE are the exception: their real receive is posted only once
 * the mirror has matched an envelope, forced onto that envelope's source and
 * tag (and receives that could take the same messages wait behind them, so
 * the real posting order stays the mirrors' order). In strict mode the
 * envelope of a standard, synchronous or ready send goes by MPI_Issend: its
 * completion is the receiver's acknowledgment, with no receiver code.
 *
 * Everything here runs inside a wrapper (re-entry guard raised) and calls
 * PMPI_ only. Single lock: the engine's tables are guarded by
 * mc_eng_lock, taken only when the program runs MPI_THREAD_MULTIPLE.
 *
 * Lock order of the whole library, outermost first: the engine lock
 * (mc_eng_lock) -> the table lock (state.h, MC_LOCK) -> the innermost locks,
 * which call into nothing that locks (typesig.c's cache, report.c's
 * report_lock, stack.c's libdw and self-range locks).
 * The wait loop (mc_eng_wait) is entered and left with the engine lock held
 * and lets go of it while it polls, so another thread's call can run.
 */
#ifndef MPICHECK_RUNTIME_H
#define MPICHECK_RUNTIME_H

#include <stdint.h>
#include <mpi.h>
#include "objects.h"     /* uthash with the checker's 16-byte-key hash, MC_BITS */
#include "call.h"
#include "sigrun.h"
#include "bufsum.h"      /* mc_region */
#include "finding.h"     /* mc_call_text */

/* ---- envelopes ---------------------------------------------------------- */

enum { MC_SEND_STANDARD = 0, MC_SEND_SYNC, MC_SEND_READY, MC_SEND_BUFFERED };

#define MC_ENV_MAGIC 0x4d434531u   /* "MCE1" */

/* What travels on the shadow for one send. Fixed-width fields, no padding;
 * only the used inline runs of sig are sent. */
typedef struct {
    uint32_t magic;
    int32_t fn;             /* sender's MPI function (enum mc_fn) */
    int32_t mode;           /* MC_SEND_* */
    int32_t world_rank;     /* sender in MPI_COMM_WORLD */
    int32_t dest;           /* destination in the communicator */
    int32_t tag;
    uint64_t site_mod;      /* sender's call site: module name hash ... */
    uint64_t site_off;      /* ... and offset in that module (site.c) */
    uint32_t flags;         /* MC_ENV_* */
    uint32_t serial;        /* strict mode: the sender's number of this send (p2p/syncmodel.c), 0: none */
    uint64_t data_sum;      /* MC_ENV_SUM: checksum of the data at the send's start (bufwatch.c) */
    mc_sig_msg sig;         /* what was sent (runs cut to sig.nruns) */
} mc_env;
_Static_assert(sizeof(mc_env) == 56 + sizeof(mc_sig_msg), "mc_env has padding");
enum { MC_ENV_SUM = 1u << 0, MC_ENV_FORTRAN = 1u << 1 /* sent from Fortran: name it MPI_SEND */,
       MC_ENV_DEPS = 1u << 2 /* the model of synchronous sends told the receiver its dependencies first */,
       MC_ENV_OFF = 1u << 3 /* that model no longer follows the sender (its receiver then neither) */ };


/* An envelope in flight from this rank. */
typedef struct mc_env_slot {
    MPI_Request req;
    int done;               /* the envelope's send completed (strict: matched) */
    int owned;              /* a send record still watches it; else reaped when done */
    /* Strict mode's early acknowledgment (p2p/notice.c): this envelope is
     * the notice_k-th one with notice_tag to notice_peer on communicator
     * notice_cid; 0 when no notice can name it. */
    uint64_t notice_k, notice_cid;
    int notice_peer, notice_tag;
    uint32_t gen;           /* counts the slot's uses: a record that let go of it tells whether it is still its own */
    int dep_own;            /* its send was let go unacknowledged: the model drops it once done (syncmodel.c) */
    struct mc_env_slot *next;
    mc_env env;
} mc_env_slot;

/* ---- communicators ------------------------------------------------------ */

/* The engine's tables share the object table's key shape (and hash). */
enum { MC_KEY_MSG = 103 };     /* probe.c's matched messages (MPI_Message) */
static inline mc_obj_key mc_key(uint64_t kind, uint64_t bits) { mc_obj_key k = {kind, bits}; return k; }

struct mc_prec;

/* The engine's part of a communicator's record: tracking's entry of the
 * communicator in the object table (objects.h: where it was made, its
 * size and rank) points at it (ext), and the engine finds it there. It
 * outlives the entry while MPI_Comm_free runs: tracking forgets the
 * handle when the call returns, the engine drains the shadow after. */
typedef struct mc_pcomm {
    MPI_Comm comm;
    MPI_Comm shadow;
    int shadow_state;       /* MC_SHADOW_*: an MPI_Comm_idup's shadow is copied first */
    MPI_Comm shadow_of;     /* MC_SHADOW_QUEUED: the parent's shadow the copy is made of */
    MPI_Request shadow_req; /* MC_SHADOW_COPYING: PMPI_Comm_idup of the shadow, NULL once done */
    int rank, size, remote_size, is_inter;
    struct mc_prec *dq_head, *dq_tail;   /* deferred receives, posting order */
    struct mc_pcomm *dq_next;            /* in the list of comms with deferred receives */
    int dq_listed;
    /* Collective handshakes (src/coll/): */
    uint64_t cid;           /* id every member agrees on (collrec mix of its origin) */
    uint64_t coll_seq;      /* collectives started on it so far, equal on every member */
    MPI_Comm flat;          /* where handshakes run: the shadow, or the merge of an intercommunicator's */
    int flat_rank, flat_size;
    int group;              /* intercommunicator: 0 for the group holding the lowest world rank, else 1 */
    int coll_off;           /* no handshakes on it (its handshake communicator could not be made) */
    /* An intercommunicator made by MPI_Comm_idup: its flat is a nonblocking
     * copy of the parent's flat, made like the shadow (MC_FLAT_*). */
    int flat_copy;
    MPI_Comm flat_of, flat_next;
    MPI_Request flat_req;
    /* Some of its processes are in another MPI_COMM_WORLD (spawned or
     * spawning): when the program disconnects it, the checker disconnects
     * its copies too, or the jobs would stay connected through them. */
    int spans_worlds;
    int disconnecting;      /* the program's MPI_Comm_disconnect is under way */
    /* MPI freed the program's communicator (mc_eng_comm_freed): what is
     * asked of its group now is asked of the shadow, the same group. */
    int comm_gone;
    /* The collective handshakes' point-to-point copy of the shadow, made
     * once the communicator has had MC_HS_TWIN_AFTER collectives
     * (coll/hs_p2p.c): MC_TWIN_* state, and whether handshakes run on it. */
    MPI_Comm hs_twin;
    MPI_Request hs_twin_req;
    int hs_twin_state;
    int hs_p2p;
    /* Strict mode's notices of posted receives (p2p/notice.c) stop: this
     * rank posted a wildcard receive on it, or cancelled a receive. */
    int notices_off;
    struct mc_pcomm *all_prev, *all_next;   /* every record */
} mc_pcomm;

/* A shadow's state: made at once (MPI_Comm_split), or for MPI_Comm_idup a
 * copy of the parent's shadow, queued behind an earlier copy of that
 * (shadow_queue.c), then copying, then ready at the communicator's first
 * use; NONE when the copy could not be made. */
enum { MC_SHADOW_READY = 0, MC_SHADOW_QUEUED, MC_SHADOW_COPYING, MC_SHADOW_NONE };

enum { MC_FLAT_NONE = 0, MC_FLAT_QUEUED, MC_FLAT_COPYING };

/* The engine's record of a communicator; NULL when it has no shadow (the
 * engine stays out of traffic on it). Completes a pending shadow idup. */
mc_pcomm *mc_pcomm_get(MPI_Comm comm);
/* World rank of rank r of comm's remote group (intercomm) or group. -1 if unknown. */
int mc_pcomm_world_rank(mc_pcomm *pc, int r);
/* "MPI_COMM_WORLD", "comm#3". */
void mc_pcomm_name(MPI_Comm comm, char *buf, size_t len);
/* The engine's start and end (comms.c): the predefined communicators (0
 * when they could not be made); MPI_Finalize waits for shadows still being
 * copied, and takes in the envelopes left on the shadows. */
int mc_pcomms_start(void);
void mc_pcomms_copies_wait(void);
void mc_pcomms_drain_lost(void);
/* Whether pc's shadow is ready, taking a copy that has ended without
 * waiting for one that has not; engine lock held. */
int mc_pcomm_try_ready(mc_pcomm *pc);
/* The first of every record (then all_next); engine lock held. */
mc_pcomm *mc_pcomms_all(void);

/* The order of the checker's nonblocking collectives on a communicator
 * while an MPI_Comm_idup of it that the checker started runs
 * (shadow_queue.c). start(ctx) starts one and returns MPI's code. */
typedef int (*mc_sq_start_fn)(void *ctx);
extern int mc_sq_active;        /* copies running or operations queued */
/* Starts it now (1, its code in *rc) or queues it behind the running copy
 * of comm (0: started later by mc_sq_drive, which ignores the code). */
int mc_sq_submit(MPI_Comm comm, mc_sq_start_fn start, void *ctx, int *rc);
/* The checker started PMPI_Comm_idup(parent, &pc->shadow, &pc->shadow_req),
 * or another copy of parent for pc whose request is *req. */
void mc_sq_copy_started(MPI_Comm parent, mc_pcomm *pc);
void mc_sq_copy_started_req(MPI_Comm parent, mc_pcomm *pc, MPI_Request *req);
/* Tests running copies; starts what waited for them, in order. */
void mc_sq_drive(void);
/* Whether a copy of comm or an operation on it is still queued or running. */
int mc_sq_uses(MPI_Comm comm);
/* pc is freed: forget its copy. */
void mc_sq_forget(mc_pcomm *pc);

/* ---- requests ----------------------------------------------------------- */

enum { MC_PR_SEND = 1, MC_PR_RECV = 2, MC_PR_PAIR = 3 /* MPI_Isendrecv: a send and a receive */,
       MC_PR_COLL = 4 /* a nonblocking collective: its completion waits for the members */ };

/* The engine's record of a request the application holds. There is one
 * request table, tracking's object table: a held request's entry there is
 * the record's first member (obj, with obj.ext pointing back), so one
 * lookup by handle finds what tracking knows (where it was made, active or
 * not) and what the engine knows. The entry leaves the table when the
 * engine completes the request or the program frees it; an orphan (freed
 * while active) is then finished by the engine and has no entry. */
typedef struct mc_prec {
    mc_obj obj;             /* {MC_OBJ_REQUEST, MC_BITS(user)} while the handle is the program's */
    MPI_Request user;       /* the handle the application holds */
    MPI_Request real;       /* MPI's request of the data; MPI_REQUEST_NULL before it is posted */
    MPI_Request mirror;     /* receive: the shadow receive; MPI_REQUEST_NULL once done */
    mc_env_slot *slot;      /* send: its envelope */
    /* Strict mode's model of synchronous sends (p2p/syncmodel.c): a send's
     * number and its envelope's slot (wslot, valid while wslot->gen ==
     * wgen, owned or not); a receive's place in this rank's order of
     * postings (0: not modelled). */
    uint32_t dep_serial, wgen;
    mc_env_slot *wslot;
    uint64_t dep_posted;
    int kind;               /* MC_PR_* */
    int fn;                 /* creating function */
    int persistent, active;
    int deferred;           /* receive waiting in its comm's deferred queue */
    int greq;               /* the user handle is a generalized request the engine completes */
    int greq_done;          /* PMPI_Grequest_complete was called */
    int user_freed;         /* MPI_Request_free while active: the engine finishes it */
    const void *freed_caller;   /* where the program freed it */
    int cancelled;          /* the engine cancelled it (deferred receive) */
    int checked;            /* envelope compared with the receive */
    int mirror_cancelled;
    int mode;               /* send mode */
    int relaxed;            /* strict wait given up after a potential-deadlock report */
    int err;                /* error of a real receive the engine made (returned at completion) */
    int bufsum_on;          /* send: bufsum holds the checksum of buf taken at its start */
    uint64_t bufsum;
    int env_match;          /* receive: its envelope's signature matched exactly */
    int rbuf_shared;        /* receive: another receive wrote the same bytes while it was active */
    mc_bufblock *blocks;    /* send part in pieces (v-variant collectives): nblocks of type at buf */
    int nblocks;
    int reg_on;             /* reg holds the bytes buf, count, type cover (buffer-overlap) */
    mc_region reg;
    uint64_t coll_key;      /* MC_PR_COLL: the collective instance (src/coll/) */
    MPI_Comm comm;
    int peer, tag;          /* as given: may be MPI_ANY_SOURCE / MPI_ANY_TAG */
    void *buf;
    MPI_Count count;
    MPI_Datatype type;
    int type_owned;         /* type is the engine's duplicate of one the program freed meanwhile */
    const void *caller;
    int fortran;            /* the call came from Fortran (mc_call.fortran) */
    mc_env env;             /* receive: the envelope its mirror got */
    MPI_Status status;      /* of the real receive when the engine completed it */
    struct mc_prec *pair_s, *pair_r;    /* MC_PR_PAIR: its two halves (engine-owned) */
    void *tmpbuf;                       /* MC_PR_PAIR of MPI_Isendrecv_replace: the outgoing copy */
    /* A held nonblocking collective (coll/held.c): its real call, made once
     * its handshake ended, from the call's saved values (the user handle
     * is then a generalized request). held_start NULL once started. */
    mc_start_fn held_start;
    mc_value *held_vals;
    double held_since;      /* when a completion call first found it waiting for its handshake */
    double posted_at;       /* strict mode: a nonblocking receive posted without a notice (p2p/notice.c) */
    struct mc_prec *held_next;
    struct mc_prec *dq_next;
    struct mc_prec *orphan_next;
    struct mc_prec *live_prev, *live_next;  /* every held record, for the walks over all */
    uint64_t looked_up;     /* the completion call's lookup that last found it (complete.c) */
} mc_prec;

mc_prec *mc_prec_find(MPI_Request user);
/* The same, and the request's table entry in *entry (NULL when not held). */
mc_prec *mc_prec_find_entry(MPI_Request user, mc_obj **entry);
/* Tests the real request the engine made for p itself (a deferred
 * receive's, a held collective's), keeping its status in p->status and an
 * error MPI returned in p->err (then the request is gone): 1 when done. */
int mc_prec_test_real(mc_prec *p);
int mc_prec_coll_keys(uint64_t *out, int max);       /* keys of held collective requests; may exceed max */
mc_prec *mc_prec_live(void);                        /* the first live record (then live_next); engine lock */
mc_prec *mc_prec_alloc(void);                       /* not in the table yet */
void mc_prec_free(mc_prec *p);                      /* one not in the table (never inserted, dropped, orphan done) */
/* Enters p in the request table under the user's handle, made by call c. */
void mc_prec_insert(mc_prec *p, MPI_Request user, const mc_call *c);
/* The record's request now has handle user (MPI_Start replaced it). */
void mc_prec_rekey(mc_prec *p, MPI_Request user);
mc_prec *mc_prec_new(MPI_Request user, const mc_call *c);   /* alloc + insert */
void mc_prec_orphan(mc_prec *p);                    /* user freed it while active */
void mc_prec_drop(mc_prec *p);
int mc_prec_count(void);

/* ---- engine ------------------------------------------------------------- */

/* Envelopes sent / mirrors matched (received), for the Finalize drain;
 * src/p2p/ counts them. */
extern long long mc_env_sent, mc_env_received;

extern int mc_eng_on;           /* the engine handles p2p calls */
/* Set in MPI_Finalize once every rank is there: waits for copies the
 * checker started are bounded from then on (a member that skipped the
 * collective that starts one never joins it). */
extern int mc_eng_final_waits;
extern int mc_eng_strict;       /* strict mode asked for (--mode=strict, the default) */
/* Whether a send made now waits for its receive (engine.c): strict mode,
 * and under MPI_THREAD_MULTIPLE only while the program runs no thread
 * besides the main one. */
int mc_eng_strict_now(void);

/* Seconds on the monotonic clock (the engine's, the detector's, p2p's). */
double mc_eng_now(void);

/* Lock of the engine's tables (MPI_THREAD_MULTIPLE only). */
void mc_eng_lock(void);
void mc_eng_unlock(void);

/* Everything the wait loop does once per turn besides the wait itself. */
void mc_eng_service(void);
/* Drives the nonblocking collectives' handshakes still running for up to
 * seconds, so that their verdict (a collective-mismatch) comes before an
 * error MPI raised on the same mistake (checks/mpi_errors.c). Returns 1
 * when none is left running. Does nothing inside the engine's own service
 * or under MPI_THREAD_MULTIPLE. */
int mc_eng_settle(double seconds);
/* Before a blocking call the engine does not take over (a collective): posts
 * the deferred wildcard receives whose envelope came, so that a message the
 * peer sent before joining that call can still be received. */
void mc_eng_before_block(void);
/* Sends the program freed while active (MPI_Request_free) are followed
 * until MPI finishes them, and their buffers compared then. Without an
 * asynchronous progress thread MPI finishes them only inside MPI calls,
 * so they are looked at as every outermost call returns, before the
 * program can rewrite a buffer whose send has ended
 * (core/dispatch.c). mc_eng_orphans_live: whether there are any. */
extern int mc_eng_orphans_live;
void mc_eng_after_call(void);
/* MPI_Test, Testany, Testall or Testsome polled on requests the engine
 * holds, none of them ready yet (complete.c): 1 when the call's answer is
 * "nothing completed" (then the engine's completion call gives that answer
 * without a real call, c->polled); 0: the whole path decides. */
int mc_eng_test_pending(mc_call *c);

/* The wait loop. ready(ctx) is polled; after the timeout the deadlock
 * detector runs with what describe(ctx) says the rank waits for. */
typedef struct mc_waitfor {
    int nclauses;
    int *clause_len;        /* -1: every rank not in MPI_Finalize */
    uint64_t *clause_key;   /* per clause: a collective instance whose members count as arrived (0: none) */
    int *ranks;             /* world ranks, clauses concatenated */
    int cap, nranks;
    int npending, nrelax;   /* pending requests; those missing only a strict acknowledgment */
    int unknown;            /* waits on something the engine cannot see: never blame */
    /* Receives whose matched message MPI is moving: no clause (they wait
     * for no call of another rank), unless list_moving, set by a caller
     * that wants every rank the wait involves (the wait board). */
    int moving, list_moving;
    uint64_t moving_bytes;
} mc_waitfor;
void mc_waitfor_clause(mc_waitfor *w);          /* starts a clause */
/* Starts a clause of a collective wait: its ranks that started collective
 * instance key release it too (they wait in it with this rank). */
void mc_waitfor_clause_key(mc_waitfor *w, uint64_t key);
void mc_waitfor_add(mc_waitfor *w, int world_rank);
void mc_waitfor_add_comm(mc_waitfor *w, mc_pcomm *pc, int rank);  /* rank or MPI_ANY_SOURCE */
void mc_waitfor_free(mc_waitfor *w);

typedef int (*mc_ready_fn)(void *ctx);
typedef void (*mc_describe_fn)(void *ctx, mc_waitfor *w, int and_mode);
void mc_eng_wait(mc_call *c, mc_ready_fn ready, mc_describe_fn describe, void *ctx);
/* The same for a call that already returned to the program (a strict
 * send whose acknowledgment was deferred, p2p/stream.c): the detector's
 * answers show c with the stack pcs taken at that call, not the current
 * one. */
void mc_eng_wait_as(mc_call *c, const uintptr_t *pcs, size_t npcs, mc_ready_fn ready,
                    mc_describe_fn describe, void *ctx);

/* Waits for one record (engine-internal: blocking sends and receives). */
void mc_eng_wait_prec(mc_call *c, mc_prec *p);
/* A test trace of the wait a deadlock verdict is about (complete.c). */
void mc_eng_trace_verdict(mc_ready_fn ready, void *ctx);
/* What one record waits for (a clause), for describe functions. */
void mc_prec_describe(mc_prec *p, mc_waitfor *w);

/* Deadlock detection (deadlock.c). */
void mc_dl_service(void);                       /* answer queries; called every turn */
/* Runs one detection of the calling thread's wait. early: the probe of a
 * strict wait that lacks only acknowledgments, made a few milliseconds into
 * the stall (docs/design.md, "Strict mode without long stalls"): it asks
 * along the wait's edges with a short grace and acts only on a potential
 * deadlock. */
enum {
    MC_DL_MOVED,        /* no verdict: some rank the wait reaches can still move */
    MC_DL_RELAXED,      /* a potential deadlock was reported: the wait stops waiting for acknowledgments */
    MC_DL_STUCK         /* blocked, and nothing for this detection to do: wait on */
};
#define MC_DL_EARLY_PROBE_S 0.005   /* a strict wait's first probe, after this long */
#define MC_DL_EARLY_GRACE_S 0.03    /* a rank silent this long into a probe is computing (x load) */
#define MC_DL_EARLY_PER_SITE 4      /* probes without verdict before a call site stops waiting */
int mc_dl_detect(mc_call *c, int early);
/* MPI_Finalize: drops the detector's unreceived messages; sent minus received. */
long mc_dl_final_drain(void);
/* Whether this wait lacks only strict-mode acknowledgments. */
int mc_dl_only_acks_missing(mc_describe_fn describe, void *ctx);
/* The early probe, when the wait lacks only those (engine lock held): 1
 * when it ran; otherwise *probe_at is the next time to look. */
int mc_dl_early_probe(mc_call *c, mc_describe_fn describe, void *ctx, double *probe_at, int *probe);
/* The early probe's grace on this machine now: MC_DL_EARLY_GRACE_S, longer
 * under load (deadlock.c). */
double mc_dl_early_grace(void);
extern int mc_dl_release_epoch;                 /* bumped when a REL message arrives */
enum { MC_RELAX_NONE, MC_RELAX_SITE, MC_RELAX_WAIT };
extern int mc_dl_relax;                         /* the current wait may skip acknowledgments (MC_RELAX_*) */
int mc_dl_site_relaxed(const void *site);       /* sends there no longer wait (a report, or probes used up) */
int mc_dl_site_reported(const void *site);      /* ... because a potential deadlock was reported there */
void mc_dl_relax_reported(const void *site);    /* relaxes site after a potential-deadlock report */
void mc_dl_relax_here(mc_call *c);              /* stop waiting for acknowledgments here, for good */
void mc_dl_relax_wait(mc_call *c);              /* ... in this wait only (no verdict: the receiver is busy) */
void mc_dl_relax_site(const void *site);        /* sends from this call site no longer wait */
void mc_dl_set_waiting(mc_call *c, mc_ready_fn ready, mc_describe_fn describe, void *ctx);
void mc_dl_clear_waiting(void);
/* The wait loop's slow phase: the waiting thread keeps its own stack for
 * an answer another thread of the rank may give. */
void mc_dl_note_slow(void);

/* A call as text another process can show with file:line (callwire.c):
 * the call and its arguments, then this process's stack as call sites;
 * and back, resolving the sites here. */
void mc_call_wire(const mc_call *c, char *text, size_t cap);
/* The same for a call another thread waits in: its stack as it captured
 * it, and the thread named (tid > 0) in the text. */
void mc_call_wire_of(const mc_call *c, const uintptr_t *stack, size_t nstack, int tid, const char *thread_name,
                     char *text, size_t cap);
void mc_call_unwire(const char *text, int rank, mc_call_text *ct);

/* Tags of the checker's own messages on mc_st.world_dup: the deadlock
 * detector's (deadlock_internal.h, 7101-7104), the leaders' exchange of
 * MPI_Intercomm_create (src/inter/) and strict mode's notices of posted
 * receives (p2p/notice.c). */
enum { MC_WTAG_INTERCOMM = 7110, MC_WTAG_NOTICE = 7111 };

/* Call sites (site.c): portable (module, offset) of a return address. */
void mc_site_encode(const void *pc, uint64_t *mod, uint64_t *off);
uintptr_t mc_site_decode(uint64_t mod, uint64_t off);

/* complete.c: the completion calls over engine-held requests, each with the
 * semantics of its MPI function (blocking = 1 for the Wait forms). */
int mc_complete_wait(mc_call *c, MPI_Request *req, MPI_Status *status);
int mc_complete_waitall(mc_call *c, int n, MPI_Request *reqs, MPI_Status *statuses);
int mc_complete_any(mc_call *c, int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *status,
                    int blocking);
int mc_complete_some(mc_call *c, int n, MPI_Request *reqs, int *outcount, int *indices,
                     MPI_Status *statuses, int blocking);
/* poll.c: what a polled call (c->polled) answers: nothing completed. */
int mc_eng_polled_answer(mc_call *c);
int mc_complete_test(mc_call *c, MPI_Request *req, int *flag, MPI_Status *status);
int mc_complete_testall(mc_call *c, int n, MPI_Request *reqs, int *flag, MPI_Status *statuses);
int mc_complete_get_status(mc_call *c, MPI_Request req, int *flag, MPI_Status *status);
int mc_complete_cancel(mc_call *c, MPI_Request *req);
int mc_complete_free(mc_call *c, MPI_Request *req);

/* buffer-modified (bufwatch.c). A nonblocking or persistent send's
 * checksum is taken as it starts (with --check-buffers: 1 and *sum, else
 * 0; the buffer's byte range, found on the way, is kept in p->reg for the
 * overlap check and the comparison at completion); it travels in the envelope and is kept in the send's record (start,
 * which also keeps buf, count and type in p), to be compared when the
 * send completes, and by the receiver when its receive completes. */
int mc_bufwatch_sum(mc_prec *p, const void *buf, MPI_Count count, MPI_Datatype type, uint64_t *sum);
void mc_bufwatch_start(mc_prec *p, const void *buf, MPI_Count count, MPI_Datatype type,
                       const uint64_t *sum);
/* The same for a send part in n > 0 blocks of one datatype at buf (a
 * nonblocking collective's v-variant, src/coll/sendpart.c); p takes b over
 * (malloc'ed) and frees it with the record. */
void mc_bufwatch_start_blocks(mc_prec *p, const void *buf, MPI_Datatype type, mc_bufblock *b,
                              int n);

/* buffer-overlap between active operations (bufwatch.c): p, about to be
 * posted or started by call c with buf, count, type and kind set, against
 * the newest records still active: a receive may share no data byte with
 * an active send, a send none with an active receive. */
void mc_bufwatch_overlap(const mc_call *c, mc_prec *p);
void mc_bufwatch_recv_wrote(mc_prec *p);
/* The newest held record (the live list: walk on with live_next). */
mc_prec *mc_prec_newest(void);

/* Init/Finalize. */
void mc_eng_start(void);
void mc_eng_finalize(void);
void mc_eng_comm_created(mc_call *c, MPI_Comm newcomm);
void mc_eng_comm_freeing(MPI_Comm comm, int disconnect);   /* before the real free: post held-back receives */
/* Before the program's MPI_Type_free: records still using the datatype get
 * a duplicate of their own (a pending operation completes normally after
 * the free, MPI-3.1 sec. 4.1.9, and the engine still posts, compares and
 * describes with it). */
void mc_eng_type_freeing(MPI_Datatype type);
void mc_eng_comm_freed(MPI_Comm comm);

#endif
