/*
 * match_test.h - what the two halves of the match model's unit tests share
 * (test_match_model.c: scenarios, edges, scale; test_match_random.c: the
 * randomized comparison with a brute-force reference): the wildcards of
 * the library under test, cheap assertions, and the model's queries
 * collected into arrays.
 */
#ifndef MPICHECK_MATCH_TEST_H
#define MPICHECK_MATCH_TEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "match_model.h"

/* The wildcards differ between libraries (MPICH: ANY_SOURCE -2, PROC_NULL
 * -1; Open MPI: ANY_SOURCE -1, PROC_NULL -2; both ANY_TAG -1); the model must
 * only use what it was given. */
typedef struct { const char *name; int as, at, pn; } wild;
extern const wild WILD[2];
extern wild W;

/* Check records every passing ck_assert (a write() each); the loops
 * make millions of checks, so they only call into Check on failure. */
#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)
#define REQ_CMP(a, op, b) do { unsigned long long a_ = (unsigned long long)(a), \
        b_ = (unsigned long long)(b); \
        REQUIRE(a_ op b_, "%s:%d: %s = %lld, want %s %lld", __FILE__, __LINE__, #a, \
                (long long)a_, #op, (long long)b_); } while (0)
#define REQ_EQ(a, b) REQ_CMP(a, ==, b)
#define REQ_LE(a, b) REQ_CMP(a, <=, b)

/* The model's answers in the tables and checks. */
#define OK MC_MATCH_MATCHED
#define NO MC_MATCH_NONE

/* The model's pending receives and envelopes, collected by its walks. */
typedef struct { uint64_t id; int source, tag; } prec;
typedef struct { size_t n, cap; prec *r; mc_match_msg *m; } coll;
int coll_recv(void *ctx, uint64_t id, int source, int tag);
int coll_msg(void *ctx, const mc_match_msg *msg);
/* Whether a receive (rs, rt) matches an envelope (es, et), wildcards as,at. */
int matches(int as, int at, int rs, int rt, int es, int et);

/* The randomized tests (test_match_random.c), added to the "scale" case. */
void match_random_add_tests(TCase *tc);

#endif
