/*
 * typesig.h - type signatures of MPI datatype handles, for type matching
 * between sender and receiver (and for collectives). Turns a handle into the
 * run-length signature of sigrun.h by walking MPI_Type_get_envelope /
 * MPI_Type_get_contents, caches it per handle, and compares a received
 * envelope with the receive's datatype and count.
 *
 * Dependencies: MPI (PMPI_ calls only: the checker never re-enters its own
 * wrappers), uthash, pthreads, sigrun.c.
 *
 * Use from the wrappers:
 *   sender:   mc_typesig_msg(datatype, count, &env.sig);  ... send env ...
 *   receiver: mc_typesig_compare(&env.sig, datatype, count, 0, &res);
 *             MISMATCH or TRUNCATED -> type-mismatch finding (text from
 *             mc_sig_result_describe, mc_sig_msg_render, mc_typesig_render);
 *             MATCH or UNKNOWN -> nothing.
 *   MPI_Type_free wrapper: mc_typesig_forget(*datatype) before PMPI_Type_free.
 *   MPI_Finalize wrapper:  mc_typesig_fini() before PMPI_Finalize.
 *
 * RATIONALE: no signature pointer ever leaves this module. Every call copies
 * what it returns under the module lock, so a thread freeing a datatype (and
 * the cache entry with it) cannot pull memory from under another thread.
 *
 * All functions need MPI initialized and not finalized; otherwise (and for
 * MPI_DATATYPE_NULL) they answer "unknown" (-1, an opaque signature, verdict
 * MC_SIG_UNKNOWN) and never call MPI. The datatype must be a valid handle:
 * the argument checks run first.
 */
#ifndef MPICHECK_TYPESIG_H
#define MPICHECK_TYPESIG_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "sigrun.h"

/* Frees the cache and the table. Call before PMPI_Finalize; a later call to
 * any function starts again only while MPI is still usable. */
void mc_typesig_fini(void);

/* The signature of one instance of t, as a deep copy (free with mc_sig_free);
 * out->size is MPI_Type_size(t). Returns 0, or -1 with *out empty. */
int mc_typesig_get(MPI_Datatype t, mc_sig *out);

/* Sender side: the signature part of an envelope for count x t. Returns 0;
 * -1 when t cannot be read, and then *m describes one element of unknown type
 * per instance, which the receiver can never report. */
int mc_typesig_msg(MPI_Datatype t, uint64_t count, mc_sig_msg *m);

/* Receiver side: compares the message described by msg with a receive of
 * rcount x rtype (mc_sig_compare has the rules; opts are MC_SIGCMP_*). */
void mc_typesig_compare(const mc_sig_msg *msg, MPI_Datatype rtype, uint64_t rcount,
                        unsigned opts, mc_sig_result *res);

/* Collectives: the hash and element count of the whole signature of
 * count x t, equal on every rank whose buffers have the same signature
 * (2 x MPI_INT, 1 x MPI_2INT, 1 x contiguous(2, MPI_INT)). *flags gets the
 * MC_SIG_* flags (MC_SIG_OVERFLOW when the count does not fit): a rank with
 * MC_SIG_OPAQUE or MC_SIG_PACKED must not be reported from hashes. Returns 0
 * or -1 (then the outputs are zero and *flags is MC_SIG_OPAQUE). */
int mc_typesig_total(MPI_Datatype t, uint64_t count, uint64_t *hash, uint64_t *nelems,
                     uint32_t *flags);

/* "3 x {MPI_INT, MPI_DOUBLE}" for count x t; "(unknown datatype)" when t
 * cannot be read. Returns buf. */
char *mc_typesig_render(MPI_Datatype t, uint64_t count, char *buf, size_t len);

/* Drops the cached signature of t. The MPI_Type_free wrapper calls it with
 * the handle's value before PMPI_Type_free: MPI reuses handle values, and a
 * stale entry would give a new datatype the old one's signature. */
void mc_typesig_forget(MPI_Datatype t);

/* Number of derived datatypes in the cache (tests and statistics). */
size_t mc_typesig_cached(void);

#endif
