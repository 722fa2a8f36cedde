/*
 * test_match_model.c - unit tests of src/match/match_model.c: a table of
 * matching scenarios with the expected match of every step (each run with
 * MPICH's and Open MPI's values of the wildcards), per-source sequence
 * numbers, reports of what is left and memory with 10000 sources. The
 * randomized comparison against a brute-force reference of MPI's rules is
 * in test_match_random.c.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_test.h"

const wild WILD[2] = {{"mpich", -2, -1, -1}, {"openmpi", -1, -1, -2}};
wild W;

/* Sentinels in the tables, mapped to W at run time. */
enum { ANYSRC = -1001, ANYTAG = -1002, PNULL = -1003 };
static int src_of(int s) { return s == ANYSRC ? W.as : s == PNULL ? W.pn : s; }
static int tag_of(int t) { return t == ANYTAG ? W.at : t; }

/* ---- helpers over the model's queries ---- */
int coll_recv(void *ctx, uint64_t id, int source, int tag)
{
    coll *c = ctx;
    if (c->n < c->cap)
        c->r[c->n] = (prec){id, source, tag};
    c->n++;
    return 0;
}

int coll_msg(void *ctx, const mc_match_msg *msg)
{
    coll *c = ctx;
    if (c->n < c->cap)
        c->m[c->n] = *msg;
    c->n++;
    return 0;
}

int matches(int as, int at, int rs, int rt, int es, int et)
{
    return (rs == as || rs == es) && (rt == at || rt == et);
}

/* The invariant of MPI's progress rule: no unexpected envelope matches a
 * pending receive; and the counts agree with the walks. */
static void check_quiescent(const mc_match *m)
{
    static prec r[512];
    static mc_match_msg e[512];
    coll cr = {0, 512, r, NULL}, ce = {0, 512, NULL, e};
    mc_match_foreach_pending(m, coll_recv, &cr);
    mc_match_foreach_unexpected(m, coll_msg, &ce);
    mc_match_stats st;
    mc_match_get_stats(m, &st);
    REQ_EQ(st.npending, cr.n);
    REQ_EQ(st.nunexpected, ce.n);
    for (size_t i = 0; i < cr.n && i < 512; i++)
        for (size_t j = 0; j < ce.n && j < 512; j++)
            REQUIRE(!matches(W.as, W.at, r[i].source, r[i].tag, e[j].source, e[j].tag),
                          "recv %llu matches unexpected envelope %llu",
                          (unsigned long long)r[i].id, (unsigned long long)e[j].env.callsite);
}

/* ---- the scenario table ---- */
typedef struct { char op; int src, tag, id, want, wid; } step;
/* A: envelope (callsite = send_req = id) arrives; wid = receive that gets it.
 * R: receive `id` posted; wid = callsite it takes.  P: probe, M: mprobe into
 * slot id, m: mrecv of slot id (wid = callsite).  C: cancel receive id.
 * S: cancel send (src, send_req id). want: expected return value. */
#define ARRIVE(s, t, c)         {'A', s, t, c, NO, 0}
#define ARRIVE_TO(s, t, c, r)   {'A', s, t, c, OK, r}
#define RECV(s, t, r)           {'R', s, t, r, NO, 0}
#define RECV_GETS(s, t, r, c)   {'R', s, t, r, OK, c}
#define PROBE(s, t, c)          {'P', s, t, 0, (c) ? OK : NO, c}
#define MPROBE(s, t, slot, c)   {'M', s, t, slot, (c) ? OK : NO, c}
#define MRECV(slot, c)          {'m', 0, 0, slot, (c) ? OK : MC_MATCH_ERR_ARG, c}
#define CANCEL(r, ok)           {'C', 0, 0, r, ok, 0}
#define CANCEL_SEND(s, c, ok)   {'S', s, 0, c, ok, 0}
#define RAW(op, s, t, id, want) {op, s, t, id, want, 0}
#define END                     {0, 0, 0, 0, 0, 0}

typedef struct { const char *name; step steps[16]; } scenario;

static const scenario SCEN[] = {
    {"in order from one source", {ARRIVE(0, 5, 101), ARRIVE(0, 5, 102), ARRIVE(0, 5, 103),
        RECV_GETS(0, 5, 1, 101), RECV_GETS(0, 5, 2, 102), RECV_GETS(0, ANYTAG, 3, 103),
        RECV(0, 5, 4), ARRIVE_TO(0, 5, 104, 4), END}},
    {"tag selects out of order", {ARRIVE(0, 1, 101), ARRIVE(0, 2, 102), ARRIVE(0, 1, 103),
        RECV_GETS(0, 2, 1, 102), RECV_GETS(0, 1, 2, 101), RECV_GETS(0, 1, 3, 103), END}},
    {"ANY_TAG takes the earliest", {ARRIVE(0, 3, 101), ARRIVE(0, 1, 102),
        RECV_GETS(0, ANYTAG, 1, 101), RECV_GETS(0, ANYTAG, 2, 102), END}},
    {"standard: Bsend example (ANY_TAG then tag)", {ARRIVE(0, 7, 101), ARRIVE(0, 7, 102),
        RECV_GETS(0, ANYTAG, 1, 101), RECV_GETS(0, 7, 2, 102), END}},
    {"ANY_SOURCE picks the earliest arrival", {ARRIVE(2, 9, 101), ARRIVE(1, 0, 102),
        ARRIVE(0, 0, 103), ARRIVE(2, 0, 104), RECV_GETS(ANYSRC, 0, 1, 102),
        RECV_GETS(ANYSRC, ANYTAG, 2, 101), RECV_GETS(ANYSRC, 0, 3, 103),
        RECV_GETS(ANYSRC, 0, 4, 104), RECV(ANYSRC, 0, 5), END}},
    {"specific receive posted before ANY_SOURCE", {RECV(1, 0, 1), RECV(ANYSRC, 0, 2),
        ARRIVE_TO(1, 0, 101, 1), ARRIVE_TO(1, 0, 102, 2), ARRIVE(1, 0, 103), END}},
    {"ANY_SOURCE posted before specific receive", {RECV(ANYSRC, 0, 1), RECV(1, 0, 2),
        ARRIVE_TO(1, 0, 101, 1), ARRIVE_TO(1, 0, 102, 2), END}},
    {"earlier ANY_SOURCE skipped on tag", {RECV(ANYSRC, 5, 1), RECV(1, ANYTAG, 2),
        ARRIVE_TO(1, 0, 101, 2), ARRIVE_TO(2, 5, 102, 1), ARRIVE(1, 5, 103), END}},
    {"posted receives matched in posting order", {RECV(0, ANYTAG, 1), RECV(0, 4, 2),
        RECV(0, ANYTAG, 3), ARRIVE_TO(0, 4, 101, 1), ARRIVE_TO(0, 4, 102, 2),
        ARRIVE_TO(0, 9, 103, 3), ARRIVE(0, 4, 104), END}},
    {"standard: Irecv ANY_TAG then tag", {RECV(0, ANYTAG, 1), RECV(0, 0, 2),
        ARRIVE_TO(0, 0, 101, 1), ARRIVE_TO(0, 0, 102, 2), END}},
    {"later receive matched when earlier tag differs", {RECV(0, 1, 1), RECV(0, 2, 2),
        ARRIVE_TO(0, 2, 101, 2), ARRIVE_TO(0, 1, 102, 1), END}},
    {"probe does not consume", {ARRIVE(0, 1, 101), PROBE(0, 1, 101), PROBE(0, 1, 101),
        PROBE(ANYSRC, ANYTAG, 101), PROBE(0, 2, 0), PROBE(1, 1, 0),
        RECV_GETS(0, 1, 1, 101), PROBE(0, 1, 0), PROBE(ANYSRC, ANYTAG, 0), END}},
    {"mprobe removes, mrecv consumes", {ARRIVE(0, 1, 101), ARRIVE(0, 1, 102),
        MPROBE(0, 1, 0, 101), PROBE(0, 1, 102), RECV_GETS(0, 1, 1, 102),
        PROBE(ANYSRC, ANYTAG, 0), RECV(0, 1, 2), ARRIVE_TO(0, 1, 103, 2),
        MRECV(0, 101), MRECV(0, 0), MPROBE(0, 1, 1, 0), END}},
    {"mprobe with ANY_SOURCE", {ARRIVE(3, 2, 101), ARRIVE(1, 2, 102),
        MPROBE(ANYSRC, 2, 0, 101), MPROBE(ANYSRC, ANYTAG, 1, 102), MRECV(1, 102),
        MRECV(0, 101), END}},
    {"cancel a pending receive", {RECV(0, 1, 1), RECV(0, 1, 2), CANCEL(1, 1),
        ARRIVE_TO(0, 1, 101, 2), CANCEL(2, 0), CANCEL(1, 0), RECV(ANYSRC, ANYTAG, 3),
        CANCEL(3, 1), ARRIVE(0, 1, 102), END}},
    {"PROC_NULL never enters", {RAW('R', PNULL, 0, 1, MC_MATCH_PROC_NULL),
        RAW('R', PNULL, ANYTAG, 2, MC_MATCH_PROC_NULL),
        RAW('P', PNULL, ANYTAG, 0, MC_MATCH_PROC_NULL),
        RAW('M', PNULL, 0, 0, MC_MATCH_PROC_NULL), ARRIVE(0, 0, 101), CANCEL(1, 0),
        RAW('A', PNULL, 0, 102, MC_MATCH_ERR_ARG), RAW('A', ANYSRC, 0, 103, MC_MATCH_ERR_ARG),
        RAW('A', 0, ANYTAG, 104, MC_MATCH_ERR_ARG), RECV_GETS(ANYSRC, ANYTAG, 3, 101),
        RECV(ANYSRC, ANYTAG, 4), END}},
    {"duplicate receive id", {RECV(0, 1, 1), RAW('R', 0, 2, 1, MC_MATCH_ERR_DUP),
        ARRIVE(0, 2, 101), ARRIVE_TO(0, 1, 102, 1), RECV_GETS(0, 2, 1, 101), END}},
    {"cancel a send", {ARRIVE(0, 1, 101), ARRIVE(0, 1, 102), ARRIVE(0, 1, 103),
        CANCEL_SEND(0, 101, 1), CANCEL_SEND(1, 102, 0), RECV_GETS(0, 1, 1, 102),
        CANCEL_SEND(0, 102, 0), MPROBE(0, 1, 0, 103), CANCEL_SEND(0, 103, 0),
        CANCEL_SEND(0, 0, 0), MRECV(0, 103), END}},
};
#define NSCEN (sizeof SCEN / sizeof SCEN[0])

START_TEST(test_scenarios)
{
    const scenario *sc = &SCEN[_i / 2];
    W = WILD[_i % 2];
    mc_match *m = mc_match_new(W.as, W.at, W.pn);
    ck_assert_ptr_nonnull(m);
    uint64_t slot[4] = {0};
    for (int k = 0; sc->steps[k].op; k++) {
        const step *s = &sc->steps[k];
        int src = src_of(s->src), tag = tag_of(s->tag), rc;
        uint64_t got = 0, rid = 0;
        mc_match_msg out;
        memset(&out, 0, sizeof out);
        switch (s->op) {
        case 'A': {
            mc_envelope env = {.callsite = (uint64_t)s->id, .send_req = (uint64_t)s->id};
            rc = mc_match_arrive(m, src, tag, &env, &rid, &out);
            got = rid;
            break;
        }
        case 'R': rc = mc_match_post_recv(m, src, tag, (uint64_t)s->id, &out);
                  got = out.env.callsite; break;
        case 'P': rc = mc_match_probe(m, src, tag, &out); got = out.env.callsite; break;
        case 'M': rc = mc_match_mprobe(m, src, tag, &out); got = out.env.callsite;
                  slot[s->id] = rc == OK ? out.msg_id : slot[s->id];
                  break;
        case 'm': rc = mc_match_mrecv(m, slot[s->id], &out); got = out.env.callsite; break;
        case 'C': rc = mc_match_cancel_recv(m, (uint64_t)s->id); break;
        case 'S': rc = mc_match_cancel_send(m, src, (uint64_t)s->id); break;
        default: ck_abort_msg("bad op"); return;
        }
        ck_assert_msg(rc == s->want, "%s [%s] step %d (%c): rc %d, want %d",
                      sc->name, W.name, k, s->op, rc, s->want);
        if (rc == OK && s->op != 'C' && s->op != 'S')
            ck_assert_msg(got == (uint64_t)s->wid, "%s [%s] step %d (%c): got %llu, want %d",
                          sc->name, W.name, k, s->op, (unsigned long long)got, s->wid);
        if (rc == OK && strchr("RPM", s->op) && src != W.as)
            ck_assert_int_eq(out.source, src);      /* a named source is kept */
        check_quiescent(m);
    }
    mc_match_free(m);
}
END_TEST

/* seq counts per source; arrival counts over the model. */
START_TEST(test_seq_and_arrival)
{
    W = WILD[0];
    mc_match *m = mc_match_new(W.as, W.at, W.pn);
    int srcs[] = {0, 1, 0, 0, 1, 7};
    uint64_t want_seq[] = {0, 0, 1, 2, 1, 0};
    ck_assert_int_eq(mc_match_post_recv(m, 0, 4, 1, NULL), NO);
    for (int i = 0; i < 6; i++) {
        mc_envelope env = {.callsite = 100 + (uint64_t)i};
        mc_match_msg out;
        int rc = mc_match_arrive(m, srcs[i], 4, &env, NULL, &out);
        ck_assert_int_eq(rc, i == 0 ? OK : NO);
        ck_assert_uint_eq(env.seq, want_seq[i]);
        ck_assert_uint_eq(out.env.seq, want_seq[i]);
        ck_assert_uint_eq(out.arrival, (uint64_t)i);
        ck_assert_int_eq(out.source, srcs[i]);
        ck_assert_int_eq(out.tag, 4);
    }
    mc_match_msg out;
    ck_assert_int_eq(mc_match_post_recv(m, 0, W.at, 2, &out), OK);
    ck_assert_uint_eq(out.env.callsite, 102);
    ck_assert_uint_eq(out.env.seq, 1);
    ck_assert_int_eq(mc_match_post_recv(m, W.as, W.at, 3, &out), OK);
    ck_assert_uint_eq(out.env.callsite, 101);          /* arrival 1 is the earliest left */
    mc_match_free(m);
}
END_TEST

static int stop_after_one(void *ctx, const mc_match_msg *msg)
{
    (void)msg;
    (*(int *)ctx)++;
    return 1;
}

/* What Finalize and the deadlock report read: leftovers, in order. */
START_TEST(test_leftovers)
{
    W = WILD[1];
    mc_match *m = mc_match_new(W.as, W.at, W.pn);
    for (int i = 0; i < 5; i++) {
        mc_envelope env = {.callsite = 100 + (uint64_t)i, .count = i};
        mc_match_arrive(m, i % 2, i, &env, NULL, NULL);
    }
    mc_match_msg out;
    ck_assert_int_eq(mc_match_post_recv(m, 0, 2, 1, &out), OK);     /* takes 102 */
    ck_assert_int_eq(mc_match_mprobe(m, 1, W.at, &out), OK);        /* holds 101 */
    ck_assert_int_eq(mc_match_post_recv(m, 5, 0, 7, NULL), NO);
    ck_assert_int_eq(mc_match_post_recv(m, W.as, 9, 8, NULL), NO);
    ck_assert_int_eq(mc_match_post_recv(m, 1, W.at, 6, &out), OK);  /* takes 103 */

    mc_match_msg e[8];
    coll c = {0, 8, NULL, e};
    mc_match_foreach_unexpected(m, coll_msg, &c);
    ck_assert_uint_eq(c.n, 2);                  /* the lost messages: 100, 104 */
    ck_assert_uint_eq(e[0].env.callsite, 100);
    ck_assert_uint_eq(e[1].env.callsite, 104);
    ck_assert_int_eq(e[1].env.count, 4);
    ck_assert_int_eq(e[1].source, 0);
    ck_assert_int_eq(e[1].tag, 4);
    c.n = 0;
    mc_match_foreach_mprobed(m, coll_msg, &c);
    ck_assert_uint_eq(c.n, 1);
    ck_assert_uint_eq(e[0].env.callsite, 101);
    prec r[8];
    coll cr = {0, 8, r, NULL};
    mc_match_foreach_pending(m, coll_recv, &cr);
    ck_assert_uint_eq(cr.n, 2);
    ck_assert_uint_eq(r[0].id, 7);
    ck_assert_int_eq(r[0].source, 5);
    ck_assert_uint_eq(r[1].id, 8);
    ck_assert_int_eq(r[1].source, W.as);
    ck_assert_int_eq(r[1].tag, 9);
    int n = 0;
    mc_match_foreach_unexpected(m, stop_after_one, &n);
    ck_assert_int_eq(n, 1);
    mc_match_stats st;
    mc_match_get_stats(m, &st);
    ck_assert_uint_eq(st.npending, 2);
    ck_assert_uint_eq(st.nunexpected, 2);
    ck_assert_uint_eq(st.nmprobed, 1);
    mc_match_free(m);                           /* frees all three kinds (valgrind) */
    mc_match_free(NULL);
    mc_match_get_stats(NULL, &st);
    ck_assert_uint_eq(st.bytes, 0);
}
END_TEST

static int count_recv_stop(void *ctx, uint64_t id, int source, int tag)
{
    (void)id, (void)source, (void)tag;
    return ++*(int *)ctx >= 2;
}

/* NULL models and early stops: the wrappers call these from error paths. */
START_TEST(test_api_edges)
{
    mc_envelope env = {0};
    mc_match_msg out;
    ck_assert_int_eq(mc_match_arrive(NULL, 0, 0, &env, NULL, NULL), MC_MATCH_ERR_ARG);
    ck_assert_int_eq(mc_match_post_recv(NULL, 0, 0, 1, NULL), MC_MATCH_ERR_ARG);
    ck_assert_int_eq(mc_match_probe(NULL, 0, 0, NULL), MC_MATCH_ERR_ARG);
    ck_assert_int_eq(mc_match_mprobe(NULL, 0, 0, NULL), MC_MATCH_ERR_ARG);
    ck_assert_int_eq(mc_match_mrecv(NULL, 1, NULL), MC_MATCH_ERR_ARG);
    ck_assert_int_eq(mc_match_cancel_recv(NULL, 1), 0);
    ck_assert_int_eq(mc_match_cancel_send(NULL, 0, 1), 0);
    ck_assert_int_eq(mc_match_recv_pending(NULL, 1), 0);
    mc_match_foreach_pending(NULL, count_recv_stop, NULL);
    W = WILD[0];
    mc_match *m = mc_match_new(W.as, W.at, W.pn);
    ck_assert_int_eq(mc_match_arrive(m, 0, 0, NULL, NULL, NULL), MC_MATCH_ERR_ARG);
    ck_assert_int_eq(mc_match_mrecv(m, 0, &out), MC_MATCH_ERR_ARG);
    for (uint64_t i = 1; i <= 3; i++)
        ck_assert_int_eq(mc_match_post_recv(m, (int)i, 0, i, NULL), NO);
    int n = 0;
    mc_match_foreach_pending(m, count_recv_stop, &n);
    ck_assert_int_eq(n, 2);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(mc_match_arrive(m, 9, i, &env, NULL, NULL), NO);
        ck_assert_int_eq(mc_match_mprobe(m, 9, W.at, &out), OK);
        ck_assert_uint_eq(out.msg_id, (uint64_t)i + 1);
    }
    n = 0;
    mc_match_foreach_mprobed(m, stop_after_one, &n);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(mc_match_mprobe(m, W.as, W.at, NULL), NO);
    ck_assert_int_eq(mc_match_mrecv(m, 2, NULL), OK);
    ck_assert_int_eq(mc_match_mrecv(m, 2, NULL), MC_MATCH_ERR_ARG);
    /* A blocking send has no request (send_req 0) and is never cancelled. */
    ck_assert_int_eq(mc_match_arrive(m, 4, 0, &env, NULL, NULL), NO);
    ck_assert_int_eq(mc_match_cancel_send(m, 4, 0), 0);
    ck_assert_int_eq(mc_match_probe(m, 4, 0, NULL), OK);
    mc_match_free(m);
}
END_TEST

/* 10000 distinct sources, spread over a large rank range: memory follows
 * what is queued (plus a small node per rank that sent), never the ranks. */
START_TEST(test_many_sources)
{
    enum { N = 10000 };
    W = WILD[0];
    mc_match *m = mc_match_new(W.as, W.at, W.pn);
    mc_match_stats st;
    mc_match_get_stats(m, &st);
    const size_t base = st.bytes;

    for (int i = 0; i < N; i++)             /* receives naming N ranks, then cancelled */
        REQ_EQ(mc_match_post_recv(m, i * 100003 % 2000000000, 0, (uint64_t)i, NULL), NO);
    mc_match_get_stats(m, &st);
    REQ_EQ(st.npending, N);
    REQ_LE(st.bytes, base + (size_t)N * 512);
    for (int i = 0; i < N; i++)
        REQ_EQ(mc_match_cancel_recv(m, (uint64_t)i), 1);
    mc_match_get_stats(m, &st);
    REQ_EQ(st.nsources, 0);
    REQ_EQ(st.bytes, base);      /* nothing left of ranks that never sent */

    for (int i = 0; i < N; i++) {
        mc_envelope env = {.callsite = (uint64_t)i};
        REQ_EQ(mc_match_arrive(m, (N - i) * 7919, i % 3, &env, NULL, NULL), NO);
    }
    mc_match_get_stats(m, &st);
    const size_t full = st.bytes;
    REQ_EQ(st.nunexpected, N);
    REQ_EQ(st.nsources, N);
    REQ_LE(full, base + (size_t)N * 512);
    for (int i = 0; i < N; i++) {           /* ANY_SOURCE: arrival order across ranks */
        mc_match_msg out;
        REQ_EQ(mc_match_post_recv(m, W.as, W.at, (uint64_t)i, &out), OK);
        REQ_EQ(out.env.callsite, (uint64_t)i);
    }
    mc_match_get_stats(m, &st);
    REQ_EQ(st.nunexpected, 0);
    REQ_EQ(st.nsources, N);      /* seq counters of ranks that sent */
    REQ_LE(st.bytes - base, (full - base) / 2);
    /* A second wave from the same ranks adds only envelopes. */
    for (int i = 0; i < N; i++) {
        mc_envelope env = {.callsite = (uint64_t)i};
        mc_match_arrive(m, (N - i) * 7919, 0, &env, NULL, NULL);
        REQ_EQ(env.seq, 1);
    }
    mc_match_get_stats(m, &st);
    REQ_LE(st.bytes, full + (size_t)N * 16);
    mc_match_free(m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("match_model");
    TCase *tc = tcase_create("scenarios");
    tcase_add_loop_test(tc, test_scenarios, 0, (int)(2 * NSCEN));
    tcase_add_test(tc, test_seq_and_arrival);
    tcase_add_test(tc, test_leftovers);
    tcase_add_test(tc, test_api_edges);
    suite_add_tcase(s, tc);
    TCase *big = tcase_create("scale");
    tcase_set_timeout(big, 600);                /* valgrind runs are slow */
    tcase_add_test(big, test_many_sources);
    match_random_add_tests(big);
    suite_add_tcase(s, big);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
