/*
 * p2p_internal.h - what the files of the point-to-point family share and
 * nothing outside it calls: probes (probe.c), receives (recv.c), sends and
 * starts (send.c), envelopes (envelope.c).
 */
#ifndef MPICHECK_P2P_INTERNAL_H
#define MPICHECK_P2P_INTERNAL_H

#include <mpi.h>
#include "call.h"
#include "p2p.h"

/* send.c and probe.c: the engine's send and receive calls, each for every
 * variant of its MPI functions (entry.c maps the int and _c forms here, with
 * counts as MPI_Count; rc: the real call's code for the _init forms). */
int mc_send_blocking(mc_call *c, int mode, const void *buf, MPI_Count count, MPI_Datatype t,
                     int dest, int tag, MPI_Comm comm);
int mc_send_nonblocking(mc_call *c, int mode, const void *buf, MPI_Count count, MPI_Datatype t,
                        int dest, int tag, MPI_Comm comm, MPI_Request *req);
/* The record of a persistent request MPI made (kind MC_PR_SEND or
 * MC_PR_RECV; mode for sends); returns rc. */
int mc_persistent_init(mc_call *c, int kind, int mode, const void *buf, MPI_Count count,
                       MPI_Datatype t, int peer, int tag, MPI_Comm comm, MPI_Request *req, int rc);
int mc_send_init(mc_call *c, int mode, const void *buf, MPI_Count count, MPI_Datatype t, int dest,
                 int tag, MPI_Comm comm, MPI_Request *req, int rc);
int mc_sendrecv(mc_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
                int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag,
                MPI_Comm comm, MPI_Status *status);
int mc_sendrecv_replace(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int dest,
                        int stag, int source, int rtag, MPI_Comm comm, MPI_Status *status);
int mc_isendrecv(mc_call *c, const void *sbuf, MPI_Count scount, MPI_Datatype stype, int dest,
                 int stag, void *rbuf, MPI_Count rcount, MPI_Datatype rtype, int source, int rtag,
                 MPI_Comm comm, MPI_Request *req, int replace);
int mc_recv_blocking(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int source, int tag,
                     MPI_Comm comm, MPI_Status *status);
int mc_recv_nonblocking(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int source, int tag,
                        MPI_Comm comm, MPI_Request *req);
int mc_recv_init(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, int source, int tag,
                 MPI_Comm comm, MPI_Request *req, int rc);
int mc_iprobe(mc_call *c, int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status,
              MPI_Message *msg);

/* stream.c (engine lock held): before a blocking send, 1 when it continues
 * the open stream, so that it goes on before its acknowledgment (the
 * stream ends first otherwise); after it (rc MPI_SUCCESS, p's data done),
 * the stream keeps p's envelope slot if deferred, or opens. */
int mc_stream_before_send(int mode, MPI_Comm comm, int dest, int tag);
/* A continuing send whose data MPI has not taken at once (a large message
 * waiting for its receive) first waits for the deferred ones before it:
 * with synchronous sends the rank would be stuck at the oldest (slot: its
 * envelope, already sent). */
void mc_stream_before_data_wait(mc_env_slot *slot);
void mc_stream_after_send(mc_call *c, mc_prec *p, int deferred);

/* send.c: MPI_Start of one request. */
int mc_start_one(mc_call *c, MPI_Request *req);

/* probe.c: the blocking probes, MPI_Mprobe (msg set) and MPI_Probe (msg
 * NULL); the check of an mprobed message's envelope at its MPI_Mrecv. */
int mc_probe(mc_call *c, int source, int tag, MPI_Comm comm, MPI_Status *status, MPI_Message *msg);
void mc_mrecv_check(mc_call *c, void *buf, MPI_Count count, MPI_Datatype t, MPI_Message *message);

/* recv.c: whether wildcard receives wait to be posted; the receives of a
 * communicator being freed go to MPI now; cancelling one receive; the
 * generalized request handed out for a held-back receive or send. */
int mc_recv_pending_deferred(void);
void mc_recv_queue_changed(void);    /* a held-back receive was changed outside recv.c */
void mc_recv_comm_freeing(mc_pcomm *pc);
void mc_recv_cancel(mc_prec *p);
int mc_recv_greq_start(mc_prec *p, MPI_Request *req);

/* notice.c (engine lock held): strict mode's early acknowledgments. The
 * sender counts each envelope that went (s may be NULL); the receiver
 * counts each mirror it posted and tells the sender when its message is
 * not here yet; a wildcard mirror or a cancelled receive ends the notices
 * of a communicator; an envelope an mprobe took counts as a mirror.
 * mc_notice_acked: a notice says s's receive is posted (takes in those
 * that came). */
void mc_notice_sent(mc_pcomm *pc, int dest, int tag, mc_env_slot *s);
void mc_notice_posted(mc_pcomm *pc, mc_prec *p, int blocking);
/* The first completion call that looks at receive p (posted_at set). */
void mc_notice_first_look(mc_prec *p);
void mc_notice_comm_off(mc_pcomm *pc);
void mc_notice_mprobed(mc_pcomm *pc, int source, int tag);
void mc_notice_intake(void);
int mc_notice_take_from(int source);      /* one message from source: 1 when there was one */
int mc_notice_acked(const mc_env_slot *s);
void mc_notice_comm_freed(mc_pcomm *pc);

/* syncmodel.c (engine lock held): strict mode's model of synchronous
 * sends. An envelope about to go by MPI_Issend (numbered, and flagged
 * MC_ENV_DEPS when the receiver must learn of dependencies); a send started
 * (s: its envelope's slot, may be NULL); an operation completed for the
 * program;
 * a receive posted (its place in the rank's order, 0 when the model does
 * not follow its communicator) and its mirror's match; a let-go send's
 * envelope done; a notice carrying D taken in (notice.c; len bytes); the
 * notices sent and the learned entries' expiry. */
#define MC_SYNC_MSG_MAX 128
void mc_sync_envelope(mc_pcomm *pc, mc_env *e);     /* numbers it; its dependencies go first */
void mc_sync_envelope_other(mc_pcomm *pc, mc_env *e);   /* a buffered send's, or one while strict waits are off */
void mc_sync_send_started(const mc_call *c, mc_prec *p, mc_env_slot *s);
void mc_sync_completed(mc_prec *p, int chosen);     /* a send, receive or pair: the program is past it */
void mc_sync_looked(void);              /* a test or a choice told the program something completed */
uint64_t mc_sync_posting(mc_pcomm *pc);
void mc_sync_matched(mc_prec *p);
void mc_sync_acked(uint32_t serial);
void mc_sync_notice(int source, const void *buf, int len);
void mc_sync_service(void);
/* A blocking collective (synccoll.c): the coll_deps_* hooks (hooks.h). */
int mc_sync_coll_enter(mc_pcomm *pc, int blocking);
int mc_sync_coll_start(MPI_Comm comm, MPI_Comm flat, void *mine, void *all, MPI_Request *req);
void mc_sync_coll_end(MPI_Comm comm, const void *all, const mc_call *c);
/* A receive or probe with MPI_ANY_SOURCE, or a cancelled receive: which
 * message it takes may differ with synchronous sends, so the rank's path
 * may too; the model stops following this rank (it forgets D, and its
 * later sends and receives neither tell nor judge). */
void mc_sync_wildcard(void);

/* envelope.c: tests one owned envelope slot now (a waiting sender); reports
 * an envelope no receive matched before MPI_Finalize. */
int mc_env_slot_done(mc_env_slot *s);
int mc_env_slot_matched(mc_env_slot *s);    /* the same, by MPI's completion alone */
int mc_env_unacked(void);
void mc_lost_report(mc_pcomm *pc, const mc_env *e, int source, long repeats);

#endif
