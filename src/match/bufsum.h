/*
 * bufsum.h - a checksum of the bytes a buffer of (count, datatype) covers,
 * for the buffer-modified check (runtime/bufwatch.c): taken when a send
 * starts, taken again when it completes; a difference means the program
 * wrote the buffer while MPI could still be reading it.
 *
 * RATIONALE: only the bytes the datatype's type map covers count (the holes
 * of a derived datatype may change freely), so a contiguous layout is
 * hashed in place and any other one is packed by MPI itself (PMPI_Pack, a
 * few kilobytes at a time) and hashed as it is packed: the type map is
 * never re-implemented here. MPI_BOTTOM with absolute addresses works the
 * same way. The hash is xxHash's XXH3 (libxxhash), streamed.
 *
 * Needs MPI initialized; PMPI_ calls only.
 */
#ifndef MPICHECK_BUFSUM_H
#define MPICHECK_BUFSUM_H

#include <mpi.h>
#include <stdint.h>

/* The checksum of count elements of type t at buf. 0 and *sum set, or -1
 * when MPI cannot say what the buffer covers (the check is then skipped). */
int mc_bufsum(const void *buf, MPI_Count count, MPI_Datatype t, uint64_t *sum);

/* A buffer in pieces of one datatype (the send part of MPI_Alltoallv, of
 * the root's MPI_Scatterv): count elements at byte offset disp from a base. */
typedef struct {
    MPI_Aint disp;
    MPI_Count count;
} mc_bufblock;

/* One checksum over the n blocks, in their order (0, or -1 as mc_bufsum). */
int mc_bufsum_blocks(const void *base, MPI_Datatype t, const mc_bufblock *b, int n, uint64_t *sum);

/* Bytes of data count elements of t hold (their packed size), -1 if unknown. */
MPI_Count mc_bufsum_bytes(MPI_Count count, MPI_Datatype t);

/* ---- overlap (the buffer-overlap checks) --------------------------------- */

/* A buffer as MPI sees it: count elements of type at buf, and the bytes
 * [lo, hi) its type map can touch (the true extent, over every element). */
typedef struct {
    const void *buf;
    MPI_Count count;
    MPI_Datatype type;
    MPI_Aint lo, hi;
    int contig;         /* every byte of [lo, hi) is data */
    MPI_Count size;     /* bytes of data in one element */
    MPI_Aint extent;    /* from one element to the next */
} mc_region;

/* Fills r; 0 when the buffer holds no data (or MPI cannot say): it
 * overlaps nothing. */
int mc_region_of(const void *buf, MPI_Count count, MPI_Datatype type, mc_region *r);
/* Whether a byte of a's data is a byte of b's data: 1 yes, 0 no, -1 cannot
 * tell (spans too large to compare byte by byte). Exact: the type maps are
 * laid out by MPI itself (PMPI_Unpack of marker bytes), so interleaved
 * datatypes (even and odd elements) do not overlap. *bytes gets the
 * common bytes when asked. */
int mc_region_overlap(const mc_region *a, const mc_region *b, MPI_Aint *bytes);
/* mc_bufsum of a region already described (no datatype queries). */
int mc_bufsum_region(const mc_region *r, uint64_t *sum);

#endif
