/*
 * typecache.c - per-thread caches of datatype facts (typecache.h says why).
 * Direct-mapped, a few entries a thread, no lock: an entry carries the
 * count of datatypes freed when it was read, and a free anywhere (one
 * atomic increment) makes every older entry miss. The count is read before
 * MPI is asked, so an answer about a handle freed meanwhile is never kept
 * as current.
 */
#include <string.h>
#include "typecache.h"
#include "typesig.h"

#define EXT_SLOTS 8
#define TOT_SLOTS 8

static uint64_t freed;      /* datatypes freed so far (atomic) */

typedef struct {
    uint64_t key, gen;      /* key: the handle's bits; gen: freed + 1 when read (0: empty) */
    mc_type_extents x;
} ext_entry;

typedef struct {
    uint64_t key, count, gen;
    uint64_t hash, nelems;
    uint32_t flags;
} tot_entry;

static __thread ext_entry ext[EXT_SLOTS];
static __thread tot_entry tot[TOT_SLOTS];

static uint64_t bits(MPI_Datatype t)
{
    uint64_t k = 0;
    memcpy(&k, &t, sizeof t < sizeof k ? sizeof t : sizeof k);
    return k;
}

static unsigned slot(uint64_t k, unsigned n)
{
    k ^= k >> 17;
    k *= 0x9e3779b97f4a7c15ull;
    return (unsigned)(k >> 59) % n;
}

void mc_typecache_forget_all(void)
{
    __atomic_add_fetch(&freed, 1, __ATOMIC_ACQ_REL);
}

int mc_typecache_extents(MPI_Datatype t, mc_type_extents *x)
{
    uint64_t k = bits(t), gen = __atomic_load_n(&freed, __ATOMIC_ACQUIRE) + 1;
    ext_entry *e = &ext[slot(k, EXT_SLOTS)];
    if (e->gen == gen && e->key == k) {
        *x = e->x;
        return 0;
    }
    if (PMPI_Type_size_x(t, &x->size) != MPI_SUCCESS
        || PMPI_Type_get_extent_x(t, &x->lb, &x->extent) != MPI_SUCCESS
        || PMPI_Type_get_true_extent_x(t, &x->true_lb, &x->true_extent) != MPI_SUCCESS)
        return -1;
    e->key = k;
    e->gen = gen;
    e->x = *x;
    return 0;
}

int mc_typecache_total(MPI_Datatype t, uint64_t count, uint64_t *hash, uint64_t *nelems, uint32_t *flags)
{
    uint64_t k = bits(t), gen = __atomic_load_n(&freed, __ATOMIC_ACQUIRE) + 1;
    tot_entry *e = &tot[slot(k ^ (count * 0x100000001b3ull), TOT_SLOTS)];
    if (e->gen == gen && e->key == k && e->count == count) {
        *hash = e->hash;
        *nelems = e->nelems;
        *flags = e->flags;
        return 0;
    }
    if (mc_typesig_total(t, count, hash, nelems, flags) != 0)
        return -1;
    e->key = k;
    e->count = count;
    e->gen = gen;
    e->hash = *hash;
    e->nelems = *nelems;
    e->flags = *flags;
    return 0;
}
