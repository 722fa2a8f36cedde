/*
 * sigrun.c - run-length type signatures: building, hashing, comparing,
 * rendering. No MPI. See sigrun.h for the model and docs/type-matching.md
 * for the rules it implements.
 */
#include "sigrun.h"
#include "skipped.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Arithmetic modulo the Mersenne prime 2^61-1 -------------------------- */

#define MOD_P ((1ULL << 61) - 1)
/* The polynomial base; any value far from 0 and 1 does. Fixed, because ranks
 * compare hashes they computed independently. */
#define BASE 0x0A3B6F1D2C5E8F47ULL

static uint64_t mulm(uint64_t a, uint64_t b)
{
    __uint128_t z = (__uint128_t)a * b;
    uint64_t r = ((uint64_t)z & MOD_P) + (uint64_t)(z >> 61);
    r = (r & MOD_P) + (r >> 61);
    return r >= MOD_P ? r - MOD_P : r;
}

static uint64_t addm(uint64_t a, uint64_t b)
{
    uint64_t r = a + b;
    return r >= MOD_P ? r - MOD_P : r;
}

/* geo = 1 + x + ... + x^(n-1) and *pw = x^n, together by binary doubling:
 * what a run of n equal elements, or n repetitions, contributes. */
static uint64_t geo_pow(uint64_t x, uint64_t n, uint64_t *pw)
{
    uint64_t g = 0, p = 1;
    for (int bit = n ? 63 - __builtin_clzll(n) : -1; bit >= 0; bit--) {
        g = mulm(g, addm(1, p));        /* m -> 2m */
        p = mulm(p, p);
        if ((n >> bit) & 1) {           /* m -> m + 1 */
            g = addm(g, p);
            p = mulm(p, x);
        }
    }
    if (pw)
        *pw = p;
    return g;
}

/* same_as[id]: 1 + the id that id matches as (0: itself). */
static uint16_t same_as[MC_T_COUNT_];

void mc_sig_set_same(unsigned id, unsigned as)
{
    if (id < MC_T_COUNT_ && as < MC_T_COUNT_ && id != as)
        same_as[id] = (uint16_t)(as + 1);
}

static unsigned matches_as(unsigned id)
{
    return id < MC_T_COUNT_ && same_as[id] ? same_as[id] - 1u : id;
}

/* The value one element of basic type id adds: well mixed and never 0, so no
 * type is invisible to the hash. */
static uint64_t elem_value(unsigned id)
{
    id = matches_as(id);
    uint64_t z = (uint64_t)id * 0x9E3779B97F4A7C15ULL + 0xD1B54A32D192ED03ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z % (MOD_P - 1) + 1;
}

/* a * b, saturated; *ovf set when it does not fit. */
static uint64_t mul_sat(uint64_t a, uint64_t b, int *ovf)
{
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *ovf = 1;
        return UINT64_MAX;
    }
    return r;
}

/* ---- Names ----------------------------------------------------------------- */

static const char *const id_names[MC_T_COUNT_] = {
#define MC_SIG_NAME_(id, name) name,
    MC_SIG_BASIC_TYPES(MC_SIG_NAME_)
#undef MC_SIG_NAME_
};

const char *mc_sig_id_name(unsigned id)
{
    return id < MC_T_COUNT_ ? id_names[id] : "(invalid id)";
}

/* ---- Building ---------------------------------------------------------------- */

void mc_sig_init(mc_sig *s)
{
    memset(s, 0, sizeof *s);
    s->pw = 1;
}

void mc_sig_free(mc_sig *s)
{
    free(s->runs);
    mc_sig_init(s);
}

/* Drops the runs: hash, pw and nelems stay exact. */
static void make_long(mc_sig *s)
{
    free(s->runs);
    s->runs = NULL;
    s->nruns = s->cap = 0;
    s->flags |= MC_SIG_LONG;
}

int mc_sig_copy(mc_sig *dst, const mc_sig *src)
{
    *dst = *src;
    dst->runs = NULL;
    dst->cap = 0;
    if (src->nruns == 0)
        return 0;
    dst->runs = mc_malloc(src->nruns * sizeof *dst->runs);
    if (!dst->runs) {
        make_long(dst);
        return -1;
    }
    memcpy(dst->runs, src->runs, src->nruns * sizeof *dst->runs);
    dst->cap = src->nruns;
    return 0;
}

/* Appends a run to the run list only (hash and count are the caller's). */
static void push_run(mc_sig *s, uint32_t id, uint64_t n)
{
    if (n == 0 || (s->flags & MC_SIG_LONG))
        return;
    if (s->nruns > 0 && s->runs[s->nruns - 1].id == id) {
        s->runs[s->nruns - 1].n += n;   /* cannot overflow: nelems is checked first */
        return;
    }
    if (s->nruns >= MC_SIG_MAX_RUNS) {
        make_long(s);
        return;
    }
    if (s->nruns == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 4;
        if (cap > MC_SIG_MAX_RUNS)
            cap = MC_SIG_MAX_RUNS;
        mc_sig_run *r = mc_realloc(s->runs, cap * sizeof *r);
        if (!r) {
            make_long(s);   /* out of memory degrades to hash-only, never to a wrong answer */
            return;
        }
        s->runs = r;
        s->cap = cap;
    }
    s->runs[s->nruns++] = (mc_sig_run){ .id = id, .pad_ = 0, .n = n };
}

void mc_sig_append_run(mc_sig *s, unsigned id, uint64_t n)
{
    if (n == 0)
        return;
    if (id >= MC_T_COUNT_)
        id = MC_T_OPAQUE;
    if (id == MC_T_OPAQUE)
        s->flags |= MC_SIG_OPAQUE;
    if (id == MC_T_PACKED)
        s->flags |= MC_SIG_PACKED;
    int ovf = 0;
    if (__builtin_add_overflow(s->nelems, n, &s->nelems))
        ovf = 1;
    if (ovf) {
        s->flags |= MC_SIG_OVERFLOW;
        make_long(s);
    }
    uint64_t bn;
    uint64_t g = geo_pow(BASE, n, &bn);
    s->hash = addm(mulm(s->hash, bn), mulm(elem_value(id), g));
    s->pw = mulm(s->pw, bn);
    push_run(s, id, n);
}

void mc_sig_append(mc_sig *s, const mc_sig *src, uint64_t times)
{
    if (times == 0 || (src->nelems == 0 && !(src->flags & MC_SIG_OVERFLOW)))
        return;
    s->flags |= src->flags & (MC_SIG_OPAQUE | MC_SIG_PACKED | MC_SIG_OVERFLOW);
    int ovf = 0;
    uint64_t add = mul_sat(src->nelems, times, &ovf);
    if (!ovf && __builtin_add_overflow(s->nelems, add, &s->nelems))
        ovf = 1;
    if (ovf)
        s->flags |= MC_SIG_OVERFLOW;
    /* H(s . src^times) = H(s) * pw(src)^times + H(src) * (1 + pw + ... + pw^(times-1)) */
    uint64_t pwk;
    uint64_t g = geo_pow(src->pw, times, &pwk);
    s->hash = addm(mulm(s->hash, pwk), mulm(src->hash, g));
    s->pw = mulm(s->pw, pwk);
    if ((s->flags & (MC_SIG_LONG | MC_SIG_OVERFLOW)) || (src->flags & MC_SIG_LONG)) {
        make_long(s);
        return;
    }
    uint32_t m = src->nruns;
    if (m == 1) {       /* a single run repeated stays one run */
        push_run(s, src->runs[0].id, src->runs[0].n * times);
        return;
    }
    /* Runs this adds after merging: times*m, less one per inner boundary where
     * the last run meets the first, less one if s ends with src's first id. */
    int wrap = src->runs[m - 1].id == src->runs[0].id;
    int join = s->nruns > 0 && s->runs[s->nruns - 1].id == src->runs[0].id;
    if (times > MC_SIG_MAX_RUNS ||
        s->nruns + times * m - (times - 1) * wrap - join > MC_SIG_MAX_RUNS) {
        make_long(s);
        return;
    }
    for (uint64_t k = 0; k < times && !(s->flags & MC_SIG_LONG); k++)
        for (uint32_t i = 0; i < m; i++)
            push_run(s, src->runs[i].id, src->runs[i].n);
}

uint64_t mc_sig_repeat_hash(uint64_t h, uint64_t nelems, uint64_t count)
{
    uint64_t pw;
    geo_pow(BASE, nelems, &pw);
    return mulm(h, geo_pow(pw, count, NULL));
}

void mc_sig_msg_make(mc_sig_msg *m, const mc_sig *s, uint64_t count)
{
    memset(m, 0, sizeof *m);
    m->hash = s->hash;
    m->nelems = s->nelems;
    m->size = s->size;
    m->count = count;
    m->flags = s->flags;
    m->nruns = s->nruns;
    uint32_t k = s->nruns < MC_SIG_INLINE_RUNS ? s->nruns : MC_SIG_INLINE_RUNS;
    for (uint32_t i = 0; i < k; i++)
        m->runs[i] = (mc_sig_run){ .id = s->runs[i].id, .pad_ = 0, .n = s->runs[i].n };
}

/* ---- Comparing ---------------------------------------------------------------- */

/* Hash of the first len elements of the sequence (hash h, n elements) repeated
 * without end. The part past whole repetitions needs the runs; covered is how
 * many leading elements of one instance the given runs describe. Returns -1
 * when they do not reach far enough. */
static int prefix_hash(uint64_t h, uint64_t n, const mc_sig_run *runs, uint32_t nruns,
                       uint64_t covered, uint64_t len, uint64_t *out)
{
    if (n == 0)
        return len == 0 ? (*out = 0, 0) : -1;
    uint64_t q = len / n, rem = len % n, pw;
    geo_pow(BASE, n, &pw);
    uint64_t hq = mulm(h, geo_pow(pw, q, NULL));
    if (rem == 0) {
        *out = hq;
        return 0;
    }
    if (rem > covered)
        return -1;
    uint64_t hr = 0, brem;
    geo_pow(BASE, rem, &brem);
    for (uint32_t i = 0; i < nruns && rem > 0; i++) {
        uint64_t k = runs[i].n < rem ? runs[i].n : rem, bk;
        uint64_t g = geo_pow(BASE, k, &bk);
        hr = addm(mulm(hr, bk), mulm(elem_value(runs[i].id), g));
        rem -= k;
    }
    *out = addm(mulm(hq, brem), hr);
    return 0;
}

/* A position in a run list read cyclically (the type repeated count times). */
typedef struct {
    const mc_sig_run *runs;
    uint32_t nruns, i;
    uint64_t left;      /* elements left in run i */
} cursor;

static void cur_init(cursor *c, const mc_sig_run *runs, uint32_t nruns)
{
    *c = (cursor){ .runs = runs, .nruns = nruns, .i = 0, .left = runs[0].n };
}

static void cur_skip(cursor *c, uint64_t k)
{
    c->left -= k;
    if (c->left == 0) {
        c->i = (c->i + 1) % c->nruns;
        c->left = c->runs[c->i].n;
    }
}

enum { WALK_EQUAL, WALK_MISMATCH, WALK_OPAQUE, WALK_CAP };

/* Compares the first len elements of two cyclic run lists, a run at a time.
 * *pos: elements found equal. An OPAQUE element stops the walk: past an
 * unknown type even positions are uncertain. */
static int walk(const mc_sig_run *a, uint32_t na, const mc_sig_run *b, uint32_t nb,
                uint64_t len, uint64_t *pos, unsigned *ida, unsigned *idb)
{
    cursor ca, cb;
    cur_init(&ca, a, na);
    cur_init(&cb, b, nb);
    *pos = 0;
    for (uint32_t steps = 0; *pos < len; steps++) {
        if (steps >= MC_SIG_MAX_STEPS)
            return WALK_CAP;
        unsigned x = ca.runs[ca.i].id, y = cb.runs[cb.i].id;
        if (x == MC_T_OPAQUE || y == MC_T_OPAQUE)
            return WALK_OPAQUE;
        if (matches_as(x) != matches_as(y)) {
            *ida = x;
            *idb = y;
            return WALK_MISMATCH;
        }
        uint64_t k = ca.left < cb.left ? ca.left : cb.left;
        if (k > len - *pos)
            k = len - *pos;
        cur_skip(&ca, k);
        cur_skip(&cb, k);
        *pos += k;
    }
    return WALK_EQUAL;
}

enum { OV_OK, OV_MISMATCH, OV_UNKNOWN };

/* Do the first len elements of the message and of the receive agree? */
static int compare_overlap(const mc_sig_msg *msg, const mc_sig *recv, uint64_t len,
                           mc_sig_result *res)
{
    if (len == 0 || (msg->hash == recv->hash && msg->nelems == recv->nelems))
        return OV_OK;   /* same instance signature: both are prefixes of one sequence */
    int msg_long = (msg->flags & MC_SIG_LONG) != 0;
    int msg_full = !msg_long && msg->nruns <= MC_SIG_INLINE_RUNS;
    uint32_t ninl = msg_long ? 0 : (msg_full ? msg->nruns : MC_SIG_INLINE_RUNS);
    uint64_t covered = 0;
    for (uint32_t i = 0; i < ninl; i++)
        covered += msg->runs[i].n;
    int recv_runs = !(recv->flags & MC_SIG_LONG) && recv->nruns > 0;
    uint64_t pos = 0;
    if (recv_runs && ninl > 0) {
        /* Only the full run list may be read cyclically. */
        uint64_t lim = msg_full ? len : (covered < len ? covered : len);
        unsigned x = 0, y = 0;
        int w = walk(msg->runs, ninl, recv->runs, recv->nruns, lim, &pos, &x, &y);
        if (w == WALK_MISMATCH) {
            res->index = (int64_t)pos;
            res->after = pos;
            res->msg_id = x;
            res->recv_id = y;
            return OV_MISMATCH;
        }
        if (w == WALK_OPAQUE)
            return OV_UNKNOWN;
        if (w == WALK_EQUAL && lim == len)
            return OV_OK;
    }
    /* Long signatures or a capped walk: the prefix hashes decide. */
    uint64_t hs, hr;
    if (prefix_hash(msg->hash, msg->nelems, msg->runs, ninl, covered, len, &hs) != 0 ||
        prefix_hash(recv->hash, recv->nelems, recv->runs, recv_runs ? recv->nruns : 0,
                    recv_runs ? recv->nelems : 0, len, &hr) != 0)
        return OV_UNKNOWN;
    if (hs == hr)
        return OV_OK;
    if ((msg->flags | recv->flags) & MC_SIG_OPAQUE)
        return OV_UNKNOWN;
    res->index = -1;
    res->after = pos;
    return OV_MISMATCH;
}

static int all_bytes(const mc_sig_run *runs, uint32_t nruns, uint32_t flags)
{
    return !(flags & MC_SIG_LONG) && nruns == 1 && runs[0].id == MC_T_BYTE;
}

void mc_sig_compare(const mc_sig_msg *msg, const mc_sig *recv, uint64_t recv_count,
                    unsigned opts, mc_sig_result *res)
{
    memset(res, 0, sizeof *res);
    res->index = -1;
    int ovf = 0, bovf = 0;
    res->msg_elems = mul_sat(msg->count, msg->nelems, &ovf);
    res->recv_elems = mul_sat(recv_count, recv->nelems, &ovf);
    res->msg_bytes = mul_sat(msg->count, msg->size, &bovf);
    res->recv_bytes = mul_sat(recv_count, recv->size, &bovf);
    uint32_t flags = msg->flags | recv->flags;
    if (msg->count == 0 || (msg->nelems == 0 && !(msg->flags & MC_SIG_OVERFLOW))) {
        res->verdict = MC_SIG_MATCH;        /* an empty message matches any receive */
        return;
    }
    /* MPI-3.1 4.2: a packing unit "can now be received using any receive
     * operation, with any datatype", and any message "can be received using
     * the type MPI_PACKED". Only the byte counts can disagree. */
    if ((flags & MC_SIG_PACKED) ||
        ((opts & MC_SIGCMP_LAX_BYTE) && (all_bytes(msg->runs, msg->nruns, msg->flags) ||
                                         all_bytes(recv->runs, recv->nruns, recv->flags)))) {
        res->bytes_rule = 1;
        res->verdict = bovf ? MC_SIG_UNKNOWN :
                       res->msg_bytes > res->recv_bytes ? MC_SIG_TRUNCATED : MC_SIG_MATCH;
        return;
    }
    if (ovf || (flags & MC_SIG_OVERFLOW)) {
        res->verdict = MC_SIG_UNKNOWN;
        return;
    }
    uint64_t len = res->msg_elems < res->recv_elems ? res->msg_elems : res->recv_elems;
    int ov = compare_overlap(msg, recv, len, res);
    if (ov == OV_MISMATCH) {
        res->verdict = MC_SIG_MISMATCH;
        return;
    }
    /* Element counts of unknown types are guesses; byte counts are what MPI
     * itself compares before it raises MPI_ERR_TRUNCATE. */
    int truncated;
    if (flags & MC_SIG_OPAQUE) {
        res->bytes_rule = 1;
        truncated = !bovf && res->msg_bytes > res->recv_bytes;
    } else {
        truncated = res->msg_elems > res->recv_elems;
    }
    res->verdict = truncated ? MC_SIG_TRUNCATED : ov == OV_UNKNOWN ? MC_SIG_UNKNOWN : MC_SIG_MATCH;
}

/* ---- Rendering ---------------------------------------------------------------- */

/* snprintf at *pos, never past len. */
static void cat(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    if (*pos >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (n > 0)
        *pos = *pos + (size_t)n < len ? *pos + (size_t)n : len;
}

#define RENDER_RUNS 8   /* runs shown before "..." */

static char *render(const mc_sig_run *runs, uint32_t nshown, uint32_t nruns, uint64_t nelems,
                    uint32_t flags, uint64_t count, char *buf, size_t len)
{
    size_t pos = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    int ovf = 0;
    uint64_t total = mul_sat(count, nelems, &ovf);
    if (flags & MC_SIG_OVERFLOW) {
        cat(buf, len, &pos, "%s", "more than 2^64 elements");
        return buf;
    }
    if (total == 0) {
        cat(buf, len, &pos, "%s", "nothing (0 elements)");
        return buf;
    }
    if (nruns == 1 && nshown == 1) {
        cat(buf, len, &pos, "%llu %s", (unsigned long long)total, mc_sig_id_name(runs[0].id));
        return buf;
    }
    if (count != 1)
        cat(buf, len, &pos, "%llu x ", (unsigned long long)count);
    if (flags & MC_SIG_LONG) {
        cat(buf, len, &pos, "{%llu elements in more than %d runs}",
            (unsigned long long)nelems, MC_SIG_MAX_RUNS);
        return buf;
    }
    cat(buf, len, &pos, "%s", "{");
    uint32_t show = nshown < RENDER_RUNS ? nshown : RENDER_RUNS;
    for (uint32_t i = 0; i < show; i++) {
        const char *sep = i ? ", " : "";
        if (runs[i].n == 1)
            cat(buf, len, &pos, "%s%s", sep, mc_sig_id_name(runs[i].id));
        else
            cat(buf, len, &pos, "%s%llu %s", sep, (unsigned long long)runs[i].n,
                mc_sig_id_name(runs[i].id));
    }
    if (show < nruns)
        cat(buf, len, &pos, ", ... (%u runs, %llu elements)", nruns, (unsigned long long)nelems);
    cat(buf, len, &pos, "%s", "}");
    return buf;
}

char *mc_sig_render(const mc_sig *s, uint64_t count, char *buf, size_t len)
{
    return render(s->runs, s->nruns, s->nruns, s->nelems, s->flags, count, buf, len);
}

char *mc_sig_msg_render(const mc_sig_msg *m, char *buf, size_t len)
{
    uint32_t shown = m->nruns < MC_SIG_INLINE_RUNS ? m->nruns : MC_SIG_INLINE_RUNS;
    return render(m->runs, shown, m->nruns, m->nelems, m->flags, m->count, buf, len);
}

char *mc_sig_result_describe(const mc_sig_result *r, char *buf, size_t len)
{
    size_t pos = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    switch (r->verdict) {
    case MC_SIG_MATCH:
        cat(buf, len, &pos, "%s", "the message's type signature is a prefix of the receive's");
        break;
    case MC_SIG_UNKNOWN:
        cat(buf, len, &pos, "%s", "the type signatures cannot be compared");
        break;
    case MC_SIG_TRUNCATED:
        if (r->bytes_rule)
            cat(buf, len, &pos, "the message has %llu bytes but the receive buffer holds only %llu",
                (unsigned long long)r->msg_bytes, (unsigned long long)r->recv_bytes);
        else
            cat(buf, len, &pos, "the message has %llu elements (%llu bytes) but the receive "
                "buffer holds only %llu (%llu bytes)",
                (unsigned long long)r->msg_elems, (unsigned long long)r->msg_bytes,
                (unsigned long long)r->recv_elems, (unsigned long long)r->recv_bytes);
        break;
    case MC_SIG_MISMATCH:
        if (r->index >= 0)
            cat(buf, len, &pos, "element %lld of the message is %s where the receive expects %s",
                (long long)r->index, mc_sig_id_name(r->msg_id), mc_sig_id_name(r->recv_id));
        else
            cat(buf, len, &pos, "the message's type signature differs from the receive's "
                "after element %llu", (unsigned long long)r->after);
        break;
    }
    return buf;
}
