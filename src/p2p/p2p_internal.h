/*
 * p2p_internal.h - what the files of the point-to-point engine share and
 * nothing outside it calls: the completion calls (complete.c), probes
 * (probe.c), receives (recv.c), sends and starts (send.c), envelopes
 * (envelope.c) and the deadlock detector's hooks into the wait loop.
 */
#ifndef MPICHECK_P2P_INTERNAL_H
#define MPICHECK_P2P_INTERNAL_H

#include <mpi.h>
#include "call.h"
#include "p2p.h"

/* complete.c: the completion calls over engine-held requests, each with the
 * semantics of its MPI function (blocking = 1 for the Wait forms). */
int mc_complete_wait(mc_call *c, MPI_Request *req, MPI_Status *status);
int mc_complete_waitall(mc_call *c, int n, MPI_Request *reqs, MPI_Status *statuses);
int mc_complete_any(mc_call *c, int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *status,
                    int blocking);
int mc_complete_some(mc_call *c, int n, MPI_Request *reqs, int *outcount, int *indices,
                     MPI_Status *statuses, int blocking);
int mc_complete_test(mc_call *c, MPI_Request *req, int *flag, MPI_Status *status);
int mc_complete_testall(mc_call *c, int n, MPI_Request *reqs, int *flag, MPI_Status *statuses);
int mc_complete_get_status(mc_call *c, MPI_Request req, int *flag, MPI_Status *status);
int mc_complete_cancel(mc_call *c, MPI_Request *req);
int mc_complete_free(mc_call *c, MPI_Request *req);

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
void mc_recv_comm_freeing(mc_pcomm *pc);
void mc_recv_cancel(mc_prec *p);
int mc_recv_greq_start(mc_prec *p, MPI_Request *req);

/* envelope.c: tests one owned envelope slot now (a waiting sender); reports
 * an envelope no receive matched before MPI_Finalize. */
int mc_env_slot_done(mc_env_slot *s);
void mc_lost_report(mc_pcomm *pc, const mc_env *e, int source, long repeats);

/* engine.c: whether requests the application freed while active are still
 * driven to completion. */
int mc_eng_has_orphans(void);

/* deadlock_answer.c: whether a lower rank's detection asked this rank to
 * leave detection to it for now. */
int mc_dl_deferred(void);

#endif
