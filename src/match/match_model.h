/*
 * match_model.h - the receiver's model of MPI message matching for ONE
 * communicator: posted receives, unexpected envelopes and matched messages
 * (MPI_Mprobe), following the standard's rules exactly (docs/matching-model.md).
 *
 * RATIONALE: the checker must know, before MPI does, which send each receive
 * gets: to compare type signatures, to force an MPI_ANY_SOURCE receive onto
 * the source and tag the model chose (so model and MPI agree), and to tell a
 * deadlock report what each rank still waits for. The module has no mpi.h:
 * the wrapper passes MPI_ANY_SOURCE, MPI_ANY_TAG and MPI_PROC_NULL in at
 * creation, ranks are ints in the communicator's numbering (for an
 * intercommunicator: ranks of the remote group, which is what sources are),
 * and receives and sends are named by the wrapper's own 64-bit ids.
 *
 * Blocking and nonblocking receives are the same here: the model matches at
 * posting or at arrival; when the user waits is the wrapper's business.
 * A persistent receive is posted again with the same id at every MPI_Start.
 *
 * Thread safety: none. A model is plain data; the caller serializes every
 * call on one model (e.g. under the lock of its tracked communicator).
 * Different models are independent.
 *
 * Memory: O(queued envelopes + pending receives + matched messages + distinct
 * sources that ever sent an envelope). A source keeps a small node after its
 * queues drain, for its envelope sequence counter; a source only named by
 * receives and that never sent leaves no trace once they are gone.
 */
#ifndef MPICHECK_MATCH_MODEL_H
#define MPICHECK_MATCH_MODEL_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    MC_SEND_STANDARD = 0, MC_SEND_SYNC, MC_SEND_READY, MC_SEND_BUFFERED
} mc_send_mode;

/* What the sender tells the receiver about one send (issue 3). The model
 * never reads it except `send_req` (mc_match_cancel_send) and writes only
 * `seq`; the rest is carried for the checks and the reports. */
typedef struct {
    uint64_t callsite;      /* sender's callsite id */
    int64_t count;          /* count argument of the send */
    uint64_t sig_hash;      /* hash of the type signature of the whole send */
    uint64_t sig_nelems;    /* number of basic elements in that signature */
    int mode;               /* mc_send_mode */
    uint64_t send_req;      /* sender's request id (0 for blocking sends) */
    uint64_t seq;           /* set by mc_match_arrive: 0, 1, 2... per source */
} mc_envelope;

/* An envelope together with its matching key, as the model hands it out. */
typedef struct {
    int source;             /* rank of the sender in the communicator */
    int tag;                /* the send's tag, never MPI_ANY_TAG */
    uint64_t arrival;       /* model-wide arrival counter (ANY_SOURCE order) */
    uint64_t msg_id;        /* mc_match_mprobe only: the matched-message handle */
    mc_envelope env;
} mc_match_msg;

/* Results. 0 means "no partner": arrive/post_recv queued the item,
 * probe/mprobe found nothing. Negative values are caller errors. */
enum {
    MC_MATCH_ERR_NOMEM = -3,
    MC_MATCH_ERR_DUP = -2,      /* recv id already pending */
    MC_MATCH_ERR_ARG = -1,      /* wildcard/PROC_NULL where a rank is needed, unknown msg id */
    MC_MATCH_NONE = 0,
    MC_MATCH_MATCHED = 1,
    MC_MATCH_PROC_NULL = 2      /* source was MPI_PROC_NULL: nothing entered the model */
};

typedef struct mc_match mc_match;

/* One model per communicator. NULL when out of memory. */
mc_match *mc_match_new(int any_source, int any_tag, int proc_null);
/* Frees everything still queued; reads nothing from it (use the foreach
 * calls first for lost-message reports). NULL is fine. */
void mc_match_free(mc_match *m);

/* An envelope from `source` with `tag` arrived (in send order per source).
 * MATCHED: the earliest-posted pending receive that matches took it; its id
 * is in *recv_id, and the receive is no longer pending. NONE: queued as
 * unexpected. In both cases env->seq is assigned and `out` (may be NULL) gets
 * the envelope with its key; on an error nothing changes, seq included. */
int mc_match_arrive(mc_match *m, int source, int tag, mc_envelope *env,
                    uint64_t *recv_id, mc_match_msg *out);

/* A receive (MPI_Recv, MPI_Irecv, MPI_Start of a receive...) is posted.
 * source may be any_source, tag may be any_tag. MATCHED: *out holds the
 * unexpected envelope it takes (for a rank: the earliest from that rank whose
 * tag matches; for any_source: the earliest arrival over all ranks, which the
 * wrapper then forces on the real receive). NONE: the receive is pending.
 * PROC_NULL: the receive completes at once with nothing; not entered. */
int mc_match_post_recv(mc_match *m, int source, int tag, uint64_t recv_id,
                       mc_match_msg *out);

/* MPI_Cancel of a receive: 1 if it was pending (removed: the cancellation
 * succeeds), 0 if not pending (already matched: the receive completes). */
int mc_match_cancel_recv(mc_match *m, uint64_t recv_id);
/* Is this receive still pending (not matched, not cancelled)? */
int mc_match_recv_pending(const mc_match *m, uint64_t recv_id);

/* A send from `source` was cancelled (the sender told us): 1 if its envelope
 * (found by env.send_req) was still unexpected and is now removed, 0 if it
 * had been matched by a receive or a matched probe (cancel must fail). */
int mc_match_cancel_send(mc_match *m, int source, uint64_t send_req);

/* MPI_Probe/MPI_Iprobe: what a receive posted now would match, without
 * taking it. MATCHED (*out filled), NONE, or PROC_NULL. */
int mc_match_probe(const mc_match *m, int source, int tag, mc_match_msg *out);

/* MPI_Mprobe/MPI_Improbe: like probe, but the envelope leaves the unexpected
 * queue into a matched message (out->msg_id, never 0) that no receive can
 * take; only mc_match_mrecv with that id consumes it. PROC_NULL: the wrapper
 * returns MPI_MESSAGE_NO_PROC. */
int mc_match_mprobe(mc_match *m, int source, int tag, mc_match_msg *out);
/* MPI_Mrecv/MPI_Imrecv: consume the matched message. MATCHED with *out
 * (may be NULL), or ERR_ARG for an unknown or already received id. */
int mc_match_mrecv(mc_match *m, uint64_t msg_id, mc_match_msg *out);

/* Queries for deadlock detection, reports, and lost messages at Finalize.
 * A callback returns nonzero to stop the walk. The model must not be changed
 * from inside a callback. */
typedef int (*mc_match_recv_fn)(void *ctx, uint64_t recv_id, int source, int tag);
typedef int (*mc_match_msg_fn)(void *ctx, const mc_match_msg *msg);
/* Pending receives in posting order (source/tag may be the wildcards). */
void mc_match_foreach_pending(const mc_match *m, mc_match_recv_fn fn, void *ctx);
/* Unexpected envelopes (no receive matched them yet) in arrival order. */
void mc_match_foreach_unexpected(const mc_match *m, mc_match_msg_fn fn, void *ctx);
/* Matched messages (mprobed) never received, in mprobe order. */
void mc_match_foreach_mprobed(const mc_match *m, mc_match_msg_fn fn, void *ctx);

typedef struct {
    size_t npending;        /* pending receives */
    size_t nunexpected;     /* unexpected envelopes */
    size_t nmprobed;        /* matched messages not yet received */
    size_t nsources;        /* per-source nodes held */
    size_t bytes;           /* heap bytes held by this model, hash tables included */
} mc_match_stats;
void mc_match_get_stats(const mc_match *m, mc_match_stats *st);

#endif
