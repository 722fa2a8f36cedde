/*
 * test_match_random.c - the match model (src/match/match_model.c) against a
 * brute-force reference of MPI's matching rules, over thousands of random
 * operation sequences, also while allocations fail (the model is built with
 * -DMC_MATCH_MALLOC=test_malloc). Part of the test_match_model binary.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_test.h"

/* ---- randomized comparison with a brute-force reference ---- */
/* The reference holds flat arrays in arrival / posting order and applies the
 * rules literally: an envelope goes to the earliest-posted matching receive;
 * a receive takes the earliest-arrived matching envelope (for one source,
 * the earliest sent from it: no overtaking). */
enum { RMAX = 4096 };
typedef struct { int src, tag; uint64_t cs, req, arrival, seq, msg_id; } renv;
typedef struct { int src, tag; uint64_t id; } rrecv;
typedef struct {
    renv ux[RMAX], mp[RMAX];
    rrecv pend[RMAX];
    int nux, nmp, npend;
    uint64_t arrival, msg_id, seq[8];
} ref;

static void del_env(renv *a, int *n, int i) { memmove(a + i, a + i + 1, (size_t)(--*n - i) * sizeof *a); }

static int ref_find(const ref *R, int src, int tag)
{
    for (int i = 0; i < R->nux; i++)
        if (matches(W.as, W.at, src, tag, R->ux[i].src, R->ux[i].tag))
            return i;
    return -1;
}

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)((rng_state >> 11) % n);
}

static void same_msg(const mc_match_msg *a, const renv *b, const char *what, int op)
{
    REQUIRE(a->source == b->src && a->tag == b->tag && a->env.callsite == b->cs &&
                  a->arrival == b->arrival && a->env.seq == b->seq,
                  "op %d %s: model (%d,%d,cs %llu) vs reference (%d,%d,cs %llu)", op, what,
                  a->source, a->tag, (unsigned long long)a->env.callsite, b->src, b->tag,
                  (unsigned long long)b->cs);
}

static void compare_state(const mc_match *m, const ref *R, int op)
{
    static prec r[RMAX];
    static mc_match_msg e[RMAX];
    coll cr = {0, RMAX, r, NULL}, ce = {0, RMAX, NULL, e};
    mc_match_foreach_pending(m, coll_recv, &cr);
    REQ_EQ((int)cr.n, R->npend);
    for (int i = 0; i < R->npend; i++)
        REQUIRE(r[i].id == R->pend[i].id && r[i].source == R->pend[i].src &&
                      r[i].tag == R->pend[i].tag, "op %d: pending #%d differs", op, i);
    mc_match_foreach_unexpected(m, coll_msg, &ce);
    REQ_EQ((int)ce.n, R->nux);
    for (int i = 0; i < R->nux; i++)
        same_msg(&e[i], &R->ux[i], "unexpected", op);
    ce.n = 0;
    mc_match_foreach_mprobed(m, coll_msg, &ce);
    REQ_EQ((int)ce.n, R->nmp);
    for (int i = 0; i < R->nmp; i++)
        same_msg(&e[i], &R->mp[i], "mprobed", op);
    /* Nodes: exactly the ranks that sent or that pending receives name. */
    size_t nsrc = 0;
    for (int s = 0; s < 8; s++) {
        int named = R->seq[s] > 0;
        for (int i = 0; i < R->npend && !named; i++)
            named = R->pend[i].src == s;
        nsrc += named;
    }
    mc_match_stats st;
    mc_match_get_stats(m, &st);
    REQ_EQ(st.nsources, nsrc);
}

/* Allocation failures, injected into the model (built with
 * -DMC_MATCH_MALLOC=test_malloc): one in fail_one_in fails when nonzero. */
static uint32_t fail_one_in;
static uint64_t fail_state = 12345;
static long nomem_seen;
void *test_malloc(size_t sz);
void *test_malloc(size_t sz)
{
    fail_state = fail_state * 6364136223846793005ULL + 1442695040888963407ULL;
    if (fail_one_in && (fail_state >> 33) % fail_one_in == 0)
        return NULL;
    return malloc(sz);
}

/* An operation that ran out of memory must have changed nothing: the caller
 * then skips the reference update and compare_state proves it. */
static int nomem(int rc)
{
    if (rc != MC_MATCH_ERR_NOMEM)
        return 0;
    REQUIRE(fail_one_in, "out of memory without an injected failure");
    nomem_seen++;
    return 1;
}

/* How often the interesting cases came up, so a weak generator shows. */
enum { H_ARR_MATCH, H_ANY_WON, H_SPEC_WON, H_RECV_MATCH_ANY, H_TAG_SKIP, H_MRECV, H_NHITS };
static long hits[H_NHITS];

static void del_recv(ref *R, int i)
{
    memmove(R->pend + i, R->pend + i + 1, (size_t)(--R->npend - i) * sizeof *R->pend);
}

static void random_sequence(int nops, uint32_t fail)
{
    static ref R;
    memset(&R, 0, sizeof R);
    fail_one_in = 0;
    mc_match *m = mc_match_new(W.as, W.at, W.pn);
    REQUIRE(m, "mc_match_new");
    fail_one_in = fail;
    const uint32_t p_arrive = 20 + rnd(40), nsrc = 1 + rnd(4), ntag = 1 + rnd(3);
    uint64_t next_id = 1, next_cs = 1;
    for (int op = 0; op < nops; op++) {
        uint32_t x = rnd(100);
        int src = (int)rnd(nsrc), tag = (int)rnd(ntag), rc, want;
        int wsrc = rnd(4) == 0 ? W.as : rnd(40) == 0 ? W.pn : src;
        int wtag = rnd(4) == 0 ? W.at : tag;
        mc_match_msg out;
        if (x < p_arrive) {                                     /* arrive */
            mc_envelope env = {.callsite = next_cs, .send_req = next_cs};
            uint64_t rid = 0;
            next_cs++;
            rc = mc_match_arrive(m, src, tag, &env, &rid, &out);
            if (nomem(rc))
                goto compare;
            renv ne = {src, tag, env.callsite, env.send_req, R.arrival++, R.seq[src]++, 0};
            int i, spec = -1, any = -1;
            for (i = 0; i < R.npend; i++)
                if (matches(W.as, W.at, R.pend[i].src, R.pend[i].tag, src, tag)) {
                    if (R.pend[i].src == W.as && any < 0)
                        any = i;
                    if (R.pend[i].src != W.as && spec < 0)
                        spec = i;
                }
            i = spec < 0 ? any : any < 0 ? spec : any < spec ? any : spec;
            if (spec >= 0 && any >= 0)
                hits[any < spec ? H_ANY_WON : H_SPEC_WON]++;
            if (i > 0 && R.pend[0].src == src)
                hits[H_TAG_SKIP]++;     /* an earlier receive from src wanted another tag */
            REQ_EQ(rc, i >= 0 ? OK : NO);
            same_msg(&out, &ne, "arrive", op);
            REQ_EQ(env.seq, ne.seq);
            if (i >= 0) {
                hits[H_ARR_MATCH]++;
                REQ_EQ(rid, R.pend[i].id);
                del_recv(&R, i);
            } else {
                R.ux[R.nux++] = ne;
            }
        } else if (x < p_arrive + 30) {                         /* post a receive */
            uint64_t id = (R.npend && rnd(20) == 0) ? R.pend[rnd((uint32_t)R.npend)].id : next_id++;
            rc = mc_match_post_recv(m, wsrc, wtag, id, &out);
            if (nomem(rc))
                goto compare;
            int dup = 0, i = ref_find(&R, wsrc, wtag);
            for (int k = 0; k < R.npend; k++)
                dup |= R.pend[k].id == id;
            want = wsrc == W.pn ? MC_MATCH_PROC_NULL : dup ? MC_MATCH_ERR_DUP : i >= 0 ? OK : NO;
            REQ_EQ(rc, want);
            if (want == OK) {
                hits[H_RECV_MATCH_ANY] += wsrc == W.as && i > 0;
                same_msg(&out, &R.ux[i], "recv", op);
                del_env(R.ux, &R.nux, i);
            } else if (want == NO) {
                R.pend[R.npend++] = (rrecv){wsrc, wtag, id};
            }
        } else if (x < p_arrive + 40) {                         /* probe */
            rc = mc_match_probe(m, wsrc, wtag, &out);
            int i = ref_find(&R, wsrc, wtag);
            REQ_EQ(rc, wsrc == W.pn ? MC_MATCH_PROC_NULL : i >= 0 ? OK : NO);
            if (rc == OK)
                same_msg(&out, &R.ux[i], "probe", op);
        } else if (x < p_arrive + 48) {                         /* mprobe */
            rc = mc_match_mprobe(m, wsrc, wtag, &out);
            if (nomem(rc))
                goto compare;
            int i = ref_find(&R, wsrc, wtag);
            REQ_EQ(rc, wsrc == W.pn ? MC_MATCH_PROC_NULL : i >= 0 ? OK : NO);
            if (rc == OK) {
                renv e = R.ux[i];
                e.msg_id = ++R.msg_id;
                same_msg(&out, &e, "mprobe", op);
                REQ_EQ(out.msg_id, e.msg_id);
                del_env(R.ux, &R.nux, i);
                R.mp[R.nmp++] = e;
            }
        } else if (x < p_arrive + 56) {                         /* mrecv */
            /* a live handle mostly; else any id, consumed or never issued */
            uint64_t id = R.nmp && rnd(10) ? R.mp[rnd((uint32_t)R.nmp)].msg_id
                                           : 1 + rnd((uint32_t)R.msg_id + 3);
            int i;
            for (i = R.nmp - 1; i >= 0 && R.mp[i].msg_id != id; i--)
                ;
            rc = mc_match_mrecv(m, id, &out);
            REQ_EQ(rc, i >= 0 ? OK : MC_MATCH_ERR_ARG);
            if (i >= 0) {
                hits[H_MRECV]++;
                same_msg(&out, &R.mp[i], "mrecv", op);
                del_env(R.mp, &R.nmp, i);
            }
        } else if (x < p_arrive + 64) {                         /* cancel a receive */
            uint64_t id = 1 + rnd((uint32_t)next_id);
            int i;
            for (i = 0; i < R.npend && R.pend[i].id != id; i++)
                ;
            REQ_EQ(mc_match_recv_pending(m, id), i < R.npend);
            REQ_EQ(mc_match_cancel_recv(m, id), i < R.npend);
            if (i < R.npend)
                del_recv(&R, i);
        } else if (x < p_arrive + 68) {                         /* cancel a send */
            uint64_t req = rnd((uint32_t)next_cs + 1);
            int i;
            for (i = 0; i < R.nux && !(R.ux[i].src == src && R.ux[i].req == req && req); i++)
                ;
            REQ_EQ(mc_match_cancel_send(m, src, req), i < R.nux);
            if (i < R.nux)
                del_env(R.ux, &R.nux, i);
        }
    compare:
        compare_state(m, &R, op);
    }
    fail_one_in = 0;
    mc_match_free(m);
}

START_TEST(test_random_vs_reference)
{
    rng_state = 0x9E3779B97F4A7C15ULL;
    memset(hits, 0, sizeof hits);
    for (int seq = 0; seq < 3000; seq++) {
        W = WILD[seq % 2];
        random_sequence(50 + (int)rnd(250), 0);
    }
    for (int h = 0; h < H_NHITS; h++)
        ck_assert_msg(hits[h] >= 100, "case %d came up only %ld times", h, hits[h]);
}
END_TEST

/* The same comparison while allocations fail: an out-of-memory result
 * leaves the model exactly as it was (no half-queued item, no seq used). */
START_TEST(test_random_out_of_memory)
{
    rng_state = 0x243F6A8885A308D3ULL;
    nomem_seen = 0;
    for (int seq = 0; seq < 500; seq++) {
        W = WILD[seq % 2];
        random_sequence(50 + (int)rnd(200), 6);
    }
    fail_one_in = 1;
    ck_assert_ptr_null(mc_match_new(-1, -1, -2));
    fail_one_in = 0;
    ck_assert_msg(nomem_seen >= 1000, "only %ld out-of-memory results (build with -DMC_MATCH_MALLOC=test_malloc)", nomem_seen);
}
END_TEST

void match_random_add_tests(TCase *tc)
{
    tcase_add_test(tc, test_random_vs_reference);
    tcase_add_test(tc, test_random_out_of_memory);
}
