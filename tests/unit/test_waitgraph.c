/*
 * test_waitgraph.c - unit tests of src/runtime/waitgraph.c without MPI: the
 * deadlock detector's verdict on wait-for graphs of the kinds MPI programs
 * make (receive cycles, OR-waits with one live peer, MPI_Finalize waits,
 * strict-mode acknowledgments, silent and unknown ranks).
 */
#include <check.h>
#include "run_suite.h"
#include <stdlib.h>
#include <string.h>

#include "waitgraph.h"
#include <stdint.h>

#define MAXN 8
#define MAXR 64

/* A graph under construction: clauses are given as strings, "1" (rank 1),
 * "1|2" (rank 1 or 2), "*" (every rank not in MPI_Finalize), separated by
 * "&" for AND: "1&2" waits for rank 1 and for rank 2. */
typedef struct {
    mc_wg_node nodes[MAXN];
    int lens[MAXN][MAXR];
    int ranks[MAXN][MAXR];
    uint64_t keys[MAXN][MAXR];
    uint64_t started[MAXN][4];
    int alts[MAXN][MAXR];
    int n;
} graph;

static void blocked(graph *g, int r, const char *spec)
{
    mc_wg_node *v = &g->nodes[r];
    v->answered = 1;
    v->blocked = 1;
    v->clause_len = g->lens[r];
    v->ranks = g->ranks[r];
    char buf[128];
    strncpy(buf, spec, sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    for (char *save = NULL, *cl = strtok_r(buf, "&", &save); cl; cl = strtok_r(NULL, "&", &save)) {
        if (strcmp(cl, "*") == 0) {
            g->lens[r][v->nclauses++] = -1;
            continue;
        }
        int len = 0;
        for (char *s2 = NULL, *t = strtok_r(cl, "|", &s2); t; t = strtok_r(NULL, "|", &s2)) {
            g->ranks[r][v->nranks++] = atoi(t);
            len++;
        }
        g->lens[r][v->nclauses++] = len;
    }
}

/* A rank whose program threads are all blocked: one spec per thread
 * ("1&2" as above); the rank moves when one thread can. */
static void threads(graph *g, int r, int nthreads, const char *const *specs)
{
    mc_wg_node *v = &g->nodes[r];
    v->nclauses = v->nranks = 0;
    for (int t = 0; t < nthreads; t++) {
        int before = v->nclauses;
        blocked(g, r, specs[t]);
        g->alts[r][t] = v->nclauses - before;
    }
    v->nalts = nthreads;
    v->alt_len = g->alts[r];
}

static void running(graph *g, int r)
{
    g->nodes[r].answered = 1;
}

/* "01" style string of the released set. */
static const char *verdict(graph *g, int relax)
{
    static char out[MAXN + 1];
    char rel[MAXN];
    mc_wg_released(g->nodes, g->n, relax, rel);
    for (int r = 0; r < g->n; r++)
        out[r] = rel[r] ? '1' : '0';
    out[g->n] = 0;
    return out;
}

static graph *mk(int n)
{
    graph *g = calloc(1, sizeof *g);
    g->n = n;
    return g;
}

START_TEST(test_recv_recv_cycle)
{
    graph *g = mk(2);
    blocked(g, 0, "1");
    blocked(g, 1, "0");
    ck_assert_str_eq(verdict(g, 0), "00");
    free(g);
}
END_TEST

START_TEST(test_peer_computing)
{
    /* rank 1 does not answer (computing): rank 0 waits for it, never blamed */
    graph *g = mk(2);
    blocked(g, 0, "1");
    ck_assert_str_eq(verdict(g, 0), "11");
    /* and one that answered "not blocked" is the same */
    running(g, 1);
    ck_assert_str_eq(verdict(g, 0), "11");
    free(g);
}
END_TEST

START_TEST(test_chain_to_live_rank)
{
    /* 0 -> 1 -> 2 -> 3, and 3 is running: everybody can move */
    graph *g = mk(4);
    blocked(g, 0, "1");
    blocked(g, 1, "2");
    blocked(g, 2, "3");
    running(g, 3);
    ck_assert_str_eq(verdict(g, 0), "1111");
    free(g);
}
END_TEST

START_TEST(test_cycle_of_three_among_eight)
{
    /* 3 of 8 ranks deadlock; the other 5 compute (or wait on them indirectly) */
    graph *g = mk(8);
    blocked(g, 2, "5");
    blocked(g, 5, "7");
    blocked(g, 7, "2");
    blocked(g, 0, "2");     /* waits on the cycle: deadlocked too */
    for (int r = 1; r < 8; r++)
        if (r != 2 && r != 5 && r != 7)
            running(g, r);
    ck_assert_str_eq(verdict(g, 0), "01011010");
    free(g);
}
END_TEST

START_TEST(test_or_wait_released_by_one)
{
    /* Waitany / MPI_ANY_SOURCE: one live peer is enough */
    graph *g = mk(3);
    blocked(g, 0, "1|2");
    blocked(g, 1, "0");
    running(g, 2);
    ck_assert_str_eq(verdict(g, 0), "111");
    free(g);
}
END_TEST

START_TEST(test_or_knot)
{
    /* every peer of the OR-wait waits back: a knot */
    graph *g = mk(3);
    blocked(g, 0, "1|2");
    blocked(g, 1, "0");
    blocked(g, 2, "0");
    ck_assert_str_eq(verdict(g, 0), "000");
    free(g);
}
END_TEST

START_TEST(test_and_wait_needs_all)
{
    /* Waitall on receives from 1 and 2: 2 is live, 1 waits for 0 */
    graph *g = mk(3);
    blocked(g, 0, "1&2");
    blocked(g, 1, "0");
    running(g, 2);
    ck_assert_str_eq(verdict(g, 0), "001");
    free(g);
}
END_TEST

START_TEST(test_finalize)
{
    /* rank 1 is in MPI_Finalize, rank 0 receives from it */
    graph *g = mk(2);
    blocked(g, 0, "1");
    blocked(g, 1, "*");
    g->nodes[1].in_finalize = 1;
    ck_assert_str_eq(verdict(g, 0), "00");
    /* all in MPI_Finalize: nobody is stuck (the barrier completes) */
    graph *h = mk(3);
    for (int r = 0; r < 3; r++) {
        blocked(h, r, "*");
        h->nodes[r].in_finalize = 1;
    }
    ck_assert_str_eq(verdict(h, 0), "111");
    /* two in MPI_Finalize, the third computing: they will be released */
    graph *k = mk(3);
    for (int r = 0; r < 2; r++) {
        blocked(k, r, "*");
        k->nodes[r].in_finalize = 1;
    }
    running(k, 2);
    ck_assert_str_eq(verdict(k, 0), "111");
    free(g);
    free(h);
    free(k);
}
END_TEST

START_TEST(test_potential_deadlock)
{
    /* small Send-Send in strict mode: both wait only for acknowledgments */
    graph *g = mk(2);
    blocked(g, 0, "1");
    blocked(g, 1, "0");
    g->nodes[0].relaxable = 1;
    g->nodes[1].relaxable = 1;
    ck_assert_str_eq(verdict(g, 0), "00");
    ck_assert_str_eq(verdict(g, 1), "11");
    /* one buffered sender frees a receive cycle partner: still potential */
    graph *h = mk(2);
    blocked(h, 0, "1");
    blocked(h, 1, "0");
    h->nodes[0].relaxable = 1;
    ck_assert_str_eq(verdict(h, 1), "11");
    free(g);
    free(h);
}
END_TEST

START_TEST(test_unknown_never_blamed)
{
    /* a rank waiting on a request the engine cannot see may be released by
     * it: neither it nor who waits for it is reported */
    graph *g = mk(2);
    blocked(g, 0, "1");
    blocked(g, 1, "0");
    g->nodes[1].unknown = 1;
    ck_assert_str_eq(verdict(g, 0), "11");
    free(g);
}
END_TEST

static int leader(graph *g)
{
    char rel[MAXN];
    mc_wg_released(g->nodes, g->n, 0, rel);
    return mc_wg_cycle_leader(g->nodes, g->n, rel);
}

START_TEST(test_cycle_leader)
{
    /* ranks 1 and 2 receive from each other; 0 and 3 wait in MPI_Finalize:
     * rank 0 sees all four deadlocked, rank 1 only {1, 2}; both must name
     * rank 1 as the one that reports */
    graph *g = mk(4);
    blocked(g, 1, "2");
    blocked(g, 2, "1");
    blocked(g, 0, "*");
    blocked(g, 3, "*");
    g->nodes[0].in_finalize = g->nodes[3].in_finalize = 1;
    ck_assert_str_eq(verdict(g, 0), "0000");
    ck_assert_int_eq(leader(g), 1);
    graph *h = mk(4);           /* what rank 1 saw */
    blocked(h, 1, "2");
    blocked(h, 2, "1");
    ck_assert_int_eq(leader(h), 1);
    /* a receive from a finalized rank: the cycle is 0 <-> 1 */
    graph *k = mk(2);
    blocked(k, 0, "1");
    blocked(k, 1, "*");
    k->nodes[1].in_finalize = 1;
    ck_assert_int_eq(leader(k), 0);
    /* a rank receiving from itself */
    graph *m = mk(2);
    blocked(m, 1, "1");
    running(m, 0);
    ck_assert_int_eq(leader(m), 1);
    /* nothing deadlocked: no leader */
    graph *q = mk(2);
    blocked(q, 0, "1");
    running(q, 1);
    ck_assert_int_eq(leader(q), -1);
    free(g);
    free(h);
    free(k);
    free(m);
    free(q);
}
END_TEST

START_TEST(test_bad_ranks_ignored)
{
    graph *g = mk(2);
    blocked(g, 0, "7|-1");
    running(g, 1);
    ck_assert_str_eq(verdict(g, 0), "01");
    free(g);
}
END_TEST

/* Rank r waits in collective instance key with the members listed in spec
 * ("1&2": every other member, one clause each), having started it. */
static void in_coll(graph *g, int r, uint64_t key, const char *spec)
{
    blocked(g, r, spec);
    for (int c = 0; c < g->nodes[r].nclauses; c++)
        g->keys[r][c] = key;
    g->nodes[r].clause_key = g->keys[r];
    g->started[r][g->nodes[r].nstarted++] = key;
    g->nodes[r].started = g->started[r];
}

/* Rank r started collective instance key (nonblocking) and went on. */
static void started_coll(graph *g, int r, uint64_t key)
{
    g->started[r][g->nodes[r].nstarted++] = key;
    g->nodes[r].started = g->started[r];
}

START_TEST(test_coll_member_computing)
{
    /* ranks 0 and 1 wait in a barrier for rank 2, which computes */
    graph *g = mk(3);
    in_coll(g, 0, 77, "1&2");
    in_coll(g, 1, 77, "0&2");
    ck_assert_str_eq(verdict(g, 0), "111");
    free(g);
}
END_TEST

START_TEST(test_coll_missing_member)
{
    /* rank 2 skipped the barrier and waits in MPI_Recv for rank 0 (fig. 19) */
    graph *g = mk(3);
    in_coll(g, 0, 77, "1&2");
    in_coll(g, 1, 77, "0&2");
    blocked(g, 2, "0");
    ck_assert_str_eq(verdict(g, 0), "000");
    char rel[3];
    mc_wg_released(g->nodes, 3, 0, rel);
    ck_assert_int_eq(mc_wg_cycle_leader(g->nodes, 3, rel), 0);
    free(g);
}
END_TEST

START_TEST(test_coll_started_nonblocking)
{
    /* rank 1 started the instance (MPI_Ibarrier) and waits in MPI_Recv for
     * rank 2, which computes; rank 0 waits in the instance: nobody is stuck
     * (rank 2 will join, the barrier completes, rank 0 goes on). Without the
     * instance key rank 0 and rank 1 would look like a cycle. */
    graph *g = mk(3);
    in_coll(g, 0, 77, "1&2");
    blocked(g, 1, "2");
    started_coll(g, 1, 77);
    ck_assert_str_eq(verdict(g, 0), "111");
    /* but rank 2 waiting for rank 0 closes a real cycle */
    blocked(g, 2, "0");
    ck_assert_str_eq(verdict(g, 0), "000");
    free(g);
}
END_TEST

START_TEST(test_coll_two_orders)
{
    /* ranks 0 and 1 wait in collectives of two communicators, in different
     * orders: each instance misses the other rank */
    graph *g = mk(2);
    in_coll(g, 0, 10, "1");
    in_coll(g, 1, 20, "0");
    ck_assert_str_eq(verdict(g, 0), "00");
    free(g);
}
END_TEST

START_TEST(test_threads_or)
{
    /* rank 0's threads wait for rank 1 and for rank 2; rank 2 computes:
     * one thread of rank 0 can move, and with it the rank */
    graph *g = mk(3);
    const char *t0[] = {"1", "2"};
    threads(g, 0, 2, t0);
    blocked(g, 1, "0");
    ck_assert_str_eq(verdict(g, 0), "111");
    /* rank 2 waits for rank 1: nobody can move */
    blocked(g, 2, "1");
    ck_assert_str_eq(verdict(g, 0), "000");
    free(g);
}
END_TEST

START_TEST(test_threads_and_within_one)
{
    /* one thread waits for ranks 1 and 2 (Waitall), the other for rank 1:
     * rank 2 running alone releases neither */
    graph *g = mk(3);
    const char *t0[] = {"1&2", "1"};
    threads(g, 0, 2, t0);
    blocked(g, 1, "0");
    running(g, 2);
    ck_assert_str_eq(verdict(g, 0), "001");
    /* rank 1 running releases the second thread */
    g->nodes[1].blocked = 0;
    ck_assert_str_eq(verdict(g, 0), "111");
    free(g);
}
END_TEST

START_TEST(test_threads_wait_on_own_rank)
{
    /* both threads of rank 0 receive from rank 0 (each waits for the
     * other's send, which neither makes): deadlocked alone */
    graph *g = mk(2);
    const char *t0[] = {"0", "0"};
    threads(g, 0, 2, t0);
    running(g, 1);
    ck_assert_str_eq(verdict(g, 0), "01");
    free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("waitgraph");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_recv_recv_cycle);
    tcase_add_test(tc, test_peer_computing);
    tcase_add_test(tc, test_chain_to_live_rank);
    tcase_add_test(tc, test_cycle_of_three_among_eight);
    tcase_add_test(tc, test_or_wait_released_by_one);
    tcase_add_test(tc, test_or_knot);
    tcase_add_test(tc, test_and_wait_needs_all);
    tcase_add_test(tc, test_finalize);
    tcase_add_test(tc, test_potential_deadlock);
    tcase_add_test(tc, test_unknown_never_blamed);
    tcase_add_test(tc, test_bad_ranks_ignored);
    tcase_add_test(tc, test_cycle_leader);
    tcase_add_test(tc, test_coll_member_computing);
    tcase_add_test(tc, test_coll_missing_member);
    tcase_add_test(tc, test_coll_started_nonblocking);
    tcase_add_test(tc, test_coll_two_orders);
    tcase_add_test(tc, test_threads_or);
    tcase_add_test(tc, test_threads_and_within_one);
    tcase_add_test(tc, test_threads_wait_on_own_rank);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
