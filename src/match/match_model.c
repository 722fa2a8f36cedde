/*
 * match_model.c - the receiver's matching model (match_model.h,
 * docs/matching-model.md).
 *
 * RATIONALE: MPI's matching is two queues, as in real implementations (seed
 * 004): posted receives and unexpected envelopes. Only wildcards make it
 * more than a per-source FIFO, so both queues are split by source:
 *   - unexpected envelopes: one FIFO per source (a specific-source receive
 *     scans only that source's queue) plus one model-wide FIFO in arrival
 *     order (an ANY_SOURCE receive takes the first match there, i.e. the
 *     earliest arrival over all sources);
 *   - pending receives: one FIFO per named source plus one FIFO of
 *     ANY_SOURCE receives; an arriving envelope looks at the first match in
 *     each and takes the one posted earlier (global posting counter).
 * Sources live in a hash, so a model never holds a slot per rank of the
 * communicator, only per rank that actually sent (seed 003).
 * Invariant after every call: no unexpected envelope matches a pending
 * receive (a match is made as soon as both sides exist).
 */
#include <stdlib.h>
#include <string.h>

#include "match_model.h"

/* The unit test builds this file with -DMC_MATCH_MALLOC=<an allocator that
 * fails on purpose> to walk the out-of-memory paths. */
#ifndef MC_MATCH_MALLOC
#define MC_MATCH_MALLOC malloc
#else
void *MC_MATCH_MALLOC(size_t sz);
#endif

struct mc_match;
static void *mm_alloc(struct mc_match *m, size_t sz);
static void mm_free(struct mc_match *m, void *p, size_t sz);

/* uthash allocates through the model so mc_match_stats.bytes is exact, and
 * reports running out of memory instead of calling exit() inside the user's
 * program. Every HASH_ADD site declares `int oom_` and has the model in `m`. */
#define HASH_NONFATAL_OOM 1
#define uthash_malloc(sz) mm_alloc(m, (sz))
#define uthash_free(p, sz) mm_free(m, (p), (sz))
#define uthash_nonfatal_oom(obj) (oom_ = 1)
#include <uthash.h>
#include <utlist.h>

/* An envelope not yet received: unexpected, or held by a matched probe. */
struct mm_env {
    mc_match_msg msg;
    struct mm_env *sprev, *snext;   /* its source's unexpected FIFO */
    struct mm_env *aprev, *anext;   /* the model-wide unexpected FIFO */
    UT_hash_handle hh;              /* m->mprobed, by msg.msg_id */
};

/* A pending receive. */
struct mm_recv {
    uint64_t id;
    uint64_t posted;                /* global posting counter */
    int source, tag;
    struct mm_recv *prev, *next;    /* its source's FIFO, or the ANY_SOURCE FIFO */
    struct mm_recv *gprev, *gnext;  /* all pending receives, posting order */
    UT_hash_handle hh;              /* m->recvs, by id */
};

/* What the model knows about one rank. */
struct mm_src {
    int source;
    uint64_t next_seq;              /* seq of its next envelope; kept while > 0 */
    struct mm_env *uhead;           /* unexpected envelopes from it, arrival order */
    struct mm_recv *rhead;          /* pending receives naming it, posting order */
    UT_hash_handle hh;
};

struct mc_match {
    int any_source, any_tag, proc_null;
    uint64_t next_arrival, next_posted, next_msg_id;
    struct mm_src *sources;
    struct mm_env *uhead;           /* all unexpected envelopes, arrival order */
    struct mm_env *mprobed;         /* matched messages awaiting mrecv */
    struct mm_recv *anyhead;        /* pending ANY_SOURCE receives */
    struct mm_recv *ghead;          /* all pending receives */
    struct mm_recv *recvs;          /* pending receives by id */
    size_t npending, nunexpected, nsources, bytes;
};

static void *mm_alloc(struct mc_match *m, size_t sz)
{
    void *p = MC_MATCH_MALLOC(sz);
    if (p)
        m->bytes += sz;
    return p;
}

static void mm_free(struct mc_match *m, void *p, size_t sz)
{
    if (p) {
        m->bytes -= sz;
        free(p);
    }
}

mc_match *mc_match_new(int any_source, int any_tag, int proc_null)
{
    mc_match *m = MC_MATCH_MALLOC(sizeof *m);
    if (!m)
        return NULL;
    memset(m, 0, sizeof *m);
    m->any_source = any_source;
    m->any_tag = any_tag;
    m->proc_null = proc_null;
    m->next_msg_id = 1;             /* 0 means "not a matched message" */
    m->bytes = sizeof *m;
    return m;
}

void mc_match_free(mc_match *m)
{
    if (!m)
        return;
    struct mm_recv *r, *rt;
    HASH_ITER(hh, m->recvs, r, rt) {
        HASH_DEL(m->recvs, r);
        mm_free(m, r, sizeof *r);
    }
    struct mm_env *e, *et;
    HASH_ITER(hh, m->mprobed, e, et) {
        HASH_DEL(m->mprobed, e);
        mm_free(m, e, sizeof *e);
    }
    for (e = m->uhead; e; e = et) {
        et = e->anext;
        mm_free(m, e, sizeof *e);
    }
    struct mm_src *s, *st;
    HASH_ITER(hh, m->sources, s, st) {
        HASH_DEL(m->sources, s);
        mm_free(m, s, sizeof *s);
    }
    free(m);
}

static int tag_ok(const mc_match *m, int want, int have)
{
    return want == m->any_tag || want == have;
}

static struct mm_src *find_src(const mc_match *m, int source)
{
    struct mm_src *s;
    HASH_FIND_INT(m->sources, &source, s);
    return s;
}

static struct mm_src *get_src(mc_match *m, int source)
{
    struct mm_src *s = find_src(m, source);
    if (s)
        return s;
    if (!(s = mm_alloc(m, sizeof *s)))
        return NULL;
    memset(s, 0, sizeof *s);
    s->source = source;
    int oom_ = 0;
    HASH_ADD_INT(m->sources, source, s);
    if (oom_) {
        mm_free(m, s, sizeof *s);
        return NULL;
    }
    m->nsources++;
    return s;
}

/* A node of a rank that never sent carries nothing once its receives are
 * gone; one that sent keeps its seq counter. */
static void maybe_drop_src(mc_match *m, struct mm_src *s)
{
    if (s && !s->uhead && !s->rhead && s->next_seq == 0) {
        HASH_DEL(m->sources, s);
        mm_free(m, s, sizeof *s);
        m->nsources--;
    }
}

/* The envelope a receive (source, tag) would take now. For one source its
 * FIFO gives the earliest sent (no overtaking); for ANY_SOURCE the
 * model-wide FIFO gives the earliest arrival, one of the choices MPI allows. */
static struct mm_env *find_unexpected(const mc_match *m, int source, int tag)
{
    struct mm_env *e;
    if (source == m->any_source) {
        DL_FOREACH2(m->uhead, e, anext)
            if (tag_ok(m, tag, e->msg.tag))
                return e;
        return NULL;
    }
    struct mm_src *s = find_src(m, source);
    if (!s)
        return NULL;
    DL_FOREACH2(s->uhead, e, snext)
        if (tag_ok(m, tag, e->msg.tag))
            return e;
    return NULL;
}

static void unlink_unexpected(mc_match *m, struct mm_env *e)
{
    struct mm_src *s = find_src(m, e->msg.source);  /* exists: next_seq > 0 */
    DL_DELETE2(s->uhead, e, sprev, snext);
    DL_DELETE2(m->uhead, e, aprev, anext);
    m->nunexpected--;
}

/* The first receive of a FIFO that accepts `tag`: receives in one FIFO are
 * in posting order, so it is also the earliest posted of them. */
static struct mm_recv *first_recv(const mc_match *m, struct mm_recv *head, int tag)
{
    struct mm_recv *r;
    DL_FOREACH(head, r)
        if (tag_ok(m, r->tag, tag))
            return r;
    return NULL;
}

static void remove_recv(mc_match *m, struct mm_recv *r)
{
    struct mm_src *s = NULL;
    if (r->source == m->any_source) {
        DL_DELETE(m->anyhead, r);
    } else {
        s = find_src(m, r->source);             /* exists: r is in its FIFO */
        DL_DELETE(s->rhead, r);
    }
    DL_DELETE2(m->ghead, r, gprev, gnext);
    HASH_DEL(m->recvs, r);
    mm_free(m, r, sizeof *r);
    m->npending--;
    maybe_drop_src(m, s);
}

int mc_match_arrive(mc_match *m, int source, int tag, mc_envelope *env,
                    uint64_t *recv_id, mc_match_msg *out)
{
    if (!m || !env || source == m->any_source || source == m->proc_null ||
        tag == m->any_tag)
        return MC_MATCH_ERR_ARG;
    struct mm_src *s = get_src(m, source);      /* holds the seq counter */
    if (!s)
        return MC_MATCH_ERR_NOMEM;
    /* Of the two FIFOs, the first matching receive of each; the earlier
     * posted wins (MPI 3.5: the first of two matching receives). */
    struct mm_recv *r = first_recv(m, s->rhead, tag);
    struct mm_recv *ra = first_recv(m, m->anyhead, tag);
    if (!r || (ra && ra->posted < r->posted))
        r = ra;
    mc_match_msg msg = {.source = source, .tag = tag, .env = *env};
    if (r) {
        msg.env.seq = env->seq = s->next_seq++;
        msg.arrival = m->next_arrival++;
        if (recv_id)
            *recv_id = r->id;
        if (out)
            *out = msg;
        remove_recv(m, r);
        return MC_MATCH_MATCHED;
    }
    struct mm_env *e = mm_alloc(m, sizeof *e);
    if (!e) {
        maybe_drop_src(m, s);
        return MC_MATCH_ERR_NOMEM;
    }
    memset(e, 0, sizeof *e);
    msg.env.seq = env->seq = s->next_seq++;
    msg.arrival = m->next_arrival++;
    e->msg = msg;
    DL_APPEND2(s->uhead, e, sprev, snext);
    DL_APPEND2(m->uhead, e, aprev, anext);
    m->nunexpected++;
    if (out)
        *out = msg;
    return MC_MATCH_NONE;
}

int mc_match_post_recv(mc_match *m, int source, int tag, uint64_t recv_id,
                       mc_match_msg *out)
{
    if (!m)
        return MC_MATCH_ERR_ARG;
    if (source == m->proc_null)
        return MC_MATCH_PROC_NULL;              /* MPI 3.11: no effect */
    if (mc_match_recv_pending(m, recv_id))
        return MC_MATCH_ERR_DUP;
    struct mm_env *e = find_unexpected(m, source, tag);
    if (e) {
        if (out)
            *out = e->msg;
        unlink_unexpected(m, e);
        mm_free(m, e, sizeof *e);
        return MC_MATCH_MATCHED;
    }
    struct mm_src *s = NULL;
    if (source != m->any_source && !(s = get_src(m, source)))
        return MC_MATCH_ERR_NOMEM;
    struct mm_recv *r = mm_alloc(m, sizeof *r);
    if (!r) {
        maybe_drop_src(m, s);
        return MC_MATCH_ERR_NOMEM;
    }
    memset(r, 0, sizeof *r);
    r->id = recv_id;
    r->source = source;
    r->tag = tag;
    int oom_ = 0;
    HASH_ADD(hh, m->recvs, id, sizeof r->id, r);
    if (oom_) {
        mm_free(m, r, sizeof *r);
        maybe_drop_src(m, s);
        return MC_MATCH_ERR_NOMEM;
    }
    r->posted = m->next_posted++;
    if (s)
        DL_APPEND(s->rhead, r);
    else
        DL_APPEND(m->anyhead, r);
    DL_APPEND2(m->ghead, r, gprev, gnext);
    m->npending++;
    return MC_MATCH_NONE;
}

int mc_match_recv_pending(const mc_match *m, uint64_t recv_id)
{
    struct mm_recv *r = NULL;
    if (m)
        HASH_FIND(hh, m->recvs, &recv_id, sizeof recv_id, r);
    return r != NULL;
}

int mc_match_cancel_recv(mc_match *m, uint64_t recv_id)
{
    struct mm_recv *r = NULL;
    if (m)
        HASH_FIND(hh, m->recvs, &recv_id, sizeof recv_id, r);
    if (!r)
        return 0;
    remove_recv(m, r);
    return 1;
}

int mc_match_cancel_send(mc_match *m, int source, uint64_t send_req)
{
    /* Blocking sends (send_req 0) cannot be cancelled; 0 must not pick one. */
    struct mm_src *s = (m && send_req) ? find_src(m, source) : NULL;
    if (!s)
        return 0;
    struct mm_env *e;
    DL_FOREACH2(s->uhead, e, snext)
        if (e->msg.env.send_req == send_req) {
            unlink_unexpected(m, e);
            mm_free(m, e, sizeof *e);
            return 1;
        }
    return 0;
}

int mc_match_probe(const mc_match *m, int source, int tag, mc_match_msg *out)
{
    if (!m)
        return MC_MATCH_ERR_ARG;
    if (source == m->proc_null)
        return MC_MATCH_PROC_NULL;
    /* No pending receive can match an unexpected envelope (invariant), so
     * "what a receive posted now would take" is the unexpected queue alone. */
    struct mm_env *e = find_unexpected(m, source, tag);
    if (!e)
        return MC_MATCH_NONE;
    if (out)
        *out = e->msg;
    return MC_MATCH_MATCHED;
}

int mc_match_mprobe(mc_match *m, int source, int tag, mc_match_msg *out)
{
    if (!m)
        return MC_MATCH_ERR_ARG;
    if (source == m->proc_null)
        return MC_MATCH_PROC_NULL;
    struct mm_env *e = find_unexpected(m, source, tag);
    if (!e)
        return MC_MATCH_NONE;
    /* Add to the matched table first: on failure nothing has moved. */
    e->msg.msg_id = m->next_msg_id;
    int oom_ = 0;
    HASH_ADD(hh, m->mprobed, msg.msg_id, sizeof e->msg.msg_id, e);
    if (oom_) {
        e->msg.msg_id = 0;
        return MC_MATCH_ERR_NOMEM;
    }
    m->next_msg_id++;
    unlink_unexpected(m, e);
    if (out)
        *out = e->msg;
    return MC_MATCH_MATCHED;
}

int mc_match_mrecv(mc_match *m, uint64_t msg_id, mc_match_msg *out)
{
    struct mm_env *e = NULL;
    if (m)
        HASH_FIND(hh, m->mprobed, &msg_id, sizeof msg_id, e);
    if (!e)
        return MC_MATCH_ERR_ARG;
    if (out)
        *out = e->msg;
    HASH_DEL(m->mprobed, e);
    mm_free(m, e, sizeof *e);
    return MC_MATCH_MATCHED;
}

void mc_match_foreach_pending(const mc_match *m, mc_match_recv_fn fn, void *ctx)
{
    struct mm_recv *r;
    if (m)
        DL_FOREACH2(m->ghead, r, gnext)
            if (fn(ctx, r->id, r->source, r->tag))
                return;
}

void mc_match_foreach_unexpected(const mc_match *m, mc_match_msg_fn fn, void *ctx)
{
    struct mm_env *e;
    if (m)
        DL_FOREACH2(m->uhead, e, anext)
            if (fn(ctx, &e->msg))
                return;
}

void mc_match_foreach_mprobed(const mc_match *m, mc_match_msg_fn fn, void *ctx)
{
    struct mm_env *e, *et;
    if (m)
        HASH_ITER(hh, m->mprobed, e, et)    /* uthash iterates in insertion order */
            if (fn(ctx, &e->msg))
                return;
}

void mc_match_get_stats(const mc_match *m, mc_match_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!m)
        return;
    st->npending = m->npending;
    st->nunexpected = m->nunexpected;
    st->nmprobed = HASH_COUNT(m->mprobed);
    st->nsources = m->nsources;
    st->bytes = m->bytes;
}
