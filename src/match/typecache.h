/*
 * typecache.h - per-thread caches of what a datatype handle is: its size
 * and extents (MPI's answers) and the signature totals of count x type
 * (typesig.c), for the checks that ask about the same few datatypes on
 * every message and collective.
 *
 * RATIONALE: a collective's record asked the signature cache (a lock, a
 * hash lookup, a power by squaring) and MPI (three queries) for the same
 * MPI_DOUBLE call after call: about 1,300 of the 4,200 instructions the
 * checker added to an MPI_Allreduce (callgrind, docs/performance.md). MPI
 * may hand out a freed datatype's handle again for another type, so every
 * entry is valid only until the next datatype is freed: mc_typesig_forget,
 * which the MPI_Type_free wrapper calls, ends them all.
 */
#ifndef MPICHECK_TYPECACHE_H
#define MPICHECK_TYPECACHE_H

#include <stdint.h>
#include <mpi.h>

typedef struct {
    MPI_Count size, lb, extent, true_lb, true_extent;
} mc_type_extents;

/* MPI_Type_size_x, _get_extent_x and _get_true_extent_x of t; 0, or -1
 * when MPI refuses one of them (nothing cached then). */
int mc_typecache_extents(MPI_Datatype t, mc_type_extents *x);
/* mc_typesig_total, cached (same contract). */
int mc_typecache_total(MPI_Datatype t, uint64_t count, uint64_t *hash, uint64_t *nelems, uint32_t *flags);
/* A datatype was freed: every thread's entries are stale. */
void mc_typecache_forget_all(void);

#endif
