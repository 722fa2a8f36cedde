/*
 * collrec.c - the collective handshake's record and its verdict (collrec.h).
 */
#include <stdio.h>
#include <string.h>
#include "collrec.h"

#define HASH_MASK ((UINT64_C(1) << 62) - 1)

/* Copied rather than filled slot by slot: a collective initializes two
 * records, and the loop cost 170 of its instructions. */
static const mc_collrec all_absent = {{[0 ... MC_CR_SLOTS - 1] = MC_CR_NONE}};

void mc_collrec_init(mc_collrec *r)
{
    *r = all_absent;
}

void mc_collrec_put(mc_collrec *r, int f, int64_t v)
{
    if (f < 0 || f >= MC_CR_NFIELDS || v == MC_CR_NONE)
        return;
    if (v > r->slot[2 * f])
        r->slot[2 * f] = v;
    if (-v > r->slot[2 * f + 1])
        r->slot[2 * f + 1] = -v;
}

void mc_collrec_merge(mc_collrec *a, const mc_collrec *b)
{
    for (int i = 0; i < MC_CR_SLOTS; i++)
        if (b->slot[i] > a->slot[i])
            a->slot[i] = b->slot[i];
}

int mc_collrec_get(const mc_collrec *r, int f, int64_t *min, int64_t *max)
{
    if (f < 0 || f >= MC_CR_NFIELDS || r->slot[2 * f] == MC_CR_NONE)
        return 0;
    *max = r->slot[2 * f];
    *min = -r->slot[2 * f + 1];
    return 1;
}

/* Field f given nowhere, or one value everywhere. */
static int uniform(const mc_collrec *r, int f)
{
    int64_t lo, hi;
    return !mc_collrec_get(r, f, &lo, &hi) || lo == hi;
}

/* The values of fields a and b, taken together, are all one value. */
static int uniform2(const mc_collrec *r, int a, int b)
{
    int64_t alo, ahi, blo, bhi;
    int ha = mc_collrec_get(r, a, &alo, &ahi), hb = mc_collrec_get(r, b, &blo, &bhi);
    if (ha && alo != ahi)
        return 0;
    if (hb && blo != bhi)
        return 0;
    return !(ha && hb) || alo == blo;
}

/* Intercommunicator roots (MPI-3.1 sec. 5.2.2): in the root's group the root
 * gives MPI_ROOT and every other member MPI_PROC_NULL; every member of the
 * other group gives the root's rank in the root's group. */
static int inter_roots_ok(const mc_collrec *r)
{
    int64_t lo[2], hi[2];
    int has[2];
    for (int g = 0; g < 2; g++)
        has[g] = mc_collrec_get(r, MC_CR_RCLASS + g, &lo[g], &hi[g]);
    if (!has[0] && !has[1])
        return 1;                   /* not a rooted collective */
    if (!has[0] || !has[1])
        return 0;
    for (int x = 0; x < 2; x++) {
        int y = 1 - x;
        if (lo[x] != 0 || hi[x] > 1)
            continue;               /* not the root's group */
        int64_t a, b, c, d;
        if (!mc_collrec_get(r, MC_CR_ROOTER + x, &a, &b) || a != b)
            return 0;               /* two members gave MPI_ROOT */
        if (lo[y] != 2 || hi[y] != 2)
            return 0;               /* the other group must name the root */
        if (!mc_collrec_get(r, MC_CR_RROOT + y, &c, &d) || c != d)
            return 0;
        int64_t rr_lo, rr_hi;
        if (!mc_collrec_get(r, MC_CR_ROOTRANK + x, &rr_lo, &rr_hi))
            return 0;
        return c == rr_lo;
    }
    return 0;                       /* no group holds exactly the root */
}

unsigned mc_collrec_verdict(const mc_collrec *r, int inter)
{
    unsigned v = 0;
    if (!uniform(r, MC_CR_KIND))
        return MC_CM_KIND;          /* the rest compares unlike things */
    if (inter ? !inter_roots_ok(r) : !uniform(r, MC_CR_ROOT))
        v |= MC_CM_ROOT;
    if (!uniform(r, MC_CR_OP))
        v |= MC_CM_OP;
    if (!uniform(r, MC_CR_INPLACE))
        v |= MC_CM_INPLACE;
    int64_t lo, hi;
    if (mc_collrec_get(r, MC_CR_VBAD, &lo, &hi) && hi > 0)
        v |= MC_CM_VPART;
    int nosig = mc_collrec_get(r, MC_CR_NOSIG, &lo, &hi) && hi > 0;
    for (int g = 0; g < (inter ? 2 : 1); g++) {
        int o = inter ? 1 - g : g;  /* what group g sends, group o receives */
        if (!uniform2(r, MC_CR_G(MC_CR_SEND_BYTES, g), MC_CR_G(MC_CR_RECV_BYTES, o)))
            v |= MC_CM_SIZE;
        else if (!nosig && !uniform2(r, MC_CR_G(MC_CR_SEND_HASH, g), MC_CR_G(MC_CR_RECV_HASH, o)))
            v |= MC_CM_TYPE;
    }
    return v;
}

int mc_collrec_unsafe(unsigned verdict)
{
    return (verdict & (MC_CM_KIND | MC_CM_ROOT | MC_CM_SIZE | MC_CM_VPART | MC_CM_INPLACE)) != 0;
}

char *mc_collrec_describe(unsigned verdict, char *buf, unsigned long len)
{
    static const struct { unsigned bit; const char *text; } parts[] = {
        {MC_CM_KIND, "different collective operations (or blocking against nonblocking)"},
        {MC_CM_ROOT, "different roots"},
        {MC_CM_OP, "different reduction operations"},
        {MC_CM_INPLACE, "MPI_IN_PLACE given by some members only"},
        {MC_CM_TYPE, "type signatures that do not match"},
        {MC_CM_SIZE, "amounts of data that do not match"},
        {MC_CM_VPART, "per-rank counts that do not match the other side's"},
    };
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (!(verdict & parts[i].bit) || used + 1 >= len)
            continue;
        int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", parts[i].text);
        if (n > 0)
            used += (size_t)n < len - used ? (size_t)n : len - used - 1;
    }
    return buf;
}

uint64_t mc_collrec_mix(uint64_t a, uint64_t b)
{
    /* splitmix64 finalizer over a combination of both. */
    uint64_t x = a * UINT64_C(0x9e3779b97f4a7c15) ^ (b + UINT64_C(0x632be59bd9b4e019) + (a << 6) + (a >> 2));
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    x &= HASH_MASK;
    return x ? x : 1;
}
