/*
 * handle_index.h - a fixed-size index from 64-bit handle bits to small
 * values (positions in the owner's pool): open addressing with linear
 * probing, and deletion by backward shift (Knuth's algorithm R), so no
 * tombstones build up and a lookup never misses a key that is in.
 *
 * RATIONALE: tracking/requests.c adds and removes an entry per request,
 * i.e. twice a message; uthash cost some 400 instructions a message there
 * (docs/performance.md), a probe here a few. The index never grows: the
 * owner keeps at most half the slots used (its pool is the bound), which
 * keeps the probe runs short.
 */
#ifndef MPICHECK_HANDLE_INDEX_H
#define MPICHECK_HANDLE_INDEX_H

#include <stdint.h>

typedef struct {
    uint64_t key;
    uint32_t value1;        /* value + 1; 0: empty */
} mc_hslot;

typedef struct {
    mc_hslot *slots;        /* nslots of them, zeroed */
    unsigned mask;          /* nslots - 1; nslots a power of two */
} mc_hindex;

static inline void mc_hindex_init(mc_hindex *h, mc_hslot *slots, unsigned nslots)
{
    h->slots = slots;
    h->mask = nslots - 1;
}

/* Handles are pointers or encoded ints: a multiply-shift spreads them. */
static inline unsigned mc_hindex_home(const mc_hindex *h, uint64_t key)
{
    return (unsigned)((key * 0x9E3779B97F4A7C15ULL) >> 32) & h->mask;
}

/* The slot holding key, or -1. */
static inline int mc_hindex_slot(const mc_hindex *h, uint64_t key)
{
    unsigned i = mc_hindex_home(h, key);
    for (unsigned n = 0; n <= h->mask && h->slots[i].value1; n++, i = (i + 1) & h->mask)
        if (h->slots[i].key == key)
            return (int)i;
    return -1;
}

/* The value of key, or -1. */
static inline int mc_hindex_get(const mc_hindex *h, uint64_t key)
{
    int i = mc_hindex_slot(h, key);
    return i < 0 ? -1 : (int)h->slots[i].value1 - 1;
}

/* Empties slot i and moves back the entries of its probe run that could
 * no longer be found past the hole: an entry stays where it is when its
 * home lies cyclically in (hole, its slot]. */
static inline void mc_hindex_clear_slot(mc_hindex *h, unsigned i)
{
    unsigned j = i;
    for (;;) {
        h->slots[i].value1 = 0;
        for (;;) {
            j = (j + 1) & h->mask;
            if (!h->slots[j].value1)
                return;
            unsigned k = mc_hindex_home(h, h->slots[j].key);
            if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
                continue;
            break;
        }
        h->slots[i] = h->slots[j];
        i = j;
    }
}

/* Removes key; its value, or -1 when it was not in. */
static inline int mc_hindex_remove(mc_hindex *h, uint64_t key)
{
    int i = mc_hindex_slot(h, key);
    if (i < 0)
        return -1;
    int value = (int)h->slots[i].value1 - 1;
    mc_hindex_clear_slot(h, (unsigned)i);
    return value;
}

/* Sets key's value (adding key); 0 when the index is full. */
static inline int mc_hindex_put(mc_hindex *h, uint64_t key, unsigned value)
{
    unsigned i = mc_hindex_home(h, key);
    for (unsigned n = 0; n <= h->mask; n++, i = (i + 1) & h->mask) {
        if (!h->slots[i].value1 || h->slots[i].key == key) {
            h->slots[i].key = key;
            h->slots[i].value1 = value + 1;
            return 1;
        }
    }
    return 0;
}

#endif
