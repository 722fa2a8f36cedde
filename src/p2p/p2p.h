/*
 * p2p.h - the point-to-point family (issue 3) on top of the runtime
 * (runtime.h): envelopes sent with every send and checked at every receive,
 * receives posted with their mirrors and the deferred wildcard receives.
 * What the runtime needs of it (a record's progress, the deferred queue,
 * envelope slots) it registers at start (mc_p2p_register).
 */
#ifndef MPICHECK_P2P_H
#define MPICHECK_P2P_H

#include <mpi.h>
#include "call.h"
#include "module.h"
#include "runtime.h"

/* Bytes of e that go on the wire. */
int mc_env_wire_size(const mc_env *e);

/* Sends the envelope for a send of count x type to dest/tag on pc, with
 * the data's checksum when sum is given; returns the slot (owned: the
 * caller watches it) or NULL when it could not be sent. */
mc_env_slot *mc_env_send(mc_call *c, mc_pcomm *pc, int mode, const void *buf, MPI_Count count,
                         MPI_Datatype type, int dest, int tag, int owned, const uint64_t *sum);
/* Tests slots in flight and frees the finished unowned ones. */
void mc_env_reap(int all);
/* A slot's owner lets it go. */
void mc_env_release(mc_env_slot *s);

/* Compares a received envelope with a receive (type-mismatch, truncation)
 * and reports; c may be NULL (completion far from the posting call).
 * Returns 1 when the signatures matched exactly. */
int mc_env_check(const mc_env *e, const mc_prec *p, mc_call *c, MPI_Comm comm, int source,
                  MPI_Datatype rtype, MPI_Count rcount);

/* Posts a receive (blocking or not): mirror, and the real one now or
 * deferred. Sets *p_out. Returns MPI's code of the real post. */
int mc_recv_post(mc_call *c, mc_pcomm *pc, void *buf, MPI_Count count, MPI_Datatype type,
                 int source, int tag, mc_prec *p);
/* Drives deferred receives: posts the real ones whose turn has come. */
void mc_recv_drive(void);
/* Progress of one record: mirror, envelope check, deferred post, generalized
 * request completion. Returns 1 when the record is "ready": the application's
 * completion call may complete it now without blocking the checker. */
int mc_prec_progress(mc_prec *p);

/* Strict mode's stream of sends (stream.c): open while the program's last
 * MPI call was a blocking send whose successors may go on before their
 * acknowledgments. Every call but a blocking send ends it first, waiting
 * for them (drop: let them go, for MPI_Abort). */
extern int mc_stream_open;
void mc_stream_end(int drop);

/* Hands the runtime what it asks of point-to-point (hooks.h). */
void mc_p2p_register(void);
/* Point-to-point as one module of core's list (module.h): its calls come
 * in through the engine's entry points (entry.c), so it only registers. */
extern const mc_module mc_p2p_module;

#endif
