/*
 * test_handle_index.c - unit tests of src/util/handle_index.h: lookups,
 * replacement, a full index, and long random runs of adds and removals
 * in small indexes (long probe runs that wrap around the end), checked
 * after every step against a plain list of what must be in.
 */
#include <check.h>
#include "run_suite.h"
#include <stdint.h>
#include <string.h>
#include "handle_index.h"

START_TEST(test_basic)
{
    mc_hslot slots[8];
    memset(slots, 0, sizeof slots);
    mc_hindex h;
    mc_hindex_init(&h, slots, 8);
    ck_assert_int_eq(mc_hindex_get(&h, 42), -1);
    ck_assert_int_eq(mc_hindex_put(&h, 42, 0), 1);
    ck_assert_int_eq(mc_hindex_put(&h, 0, 7), 1);      /* key 0 is a key like any other */
    ck_assert_int_eq(mc_hindex_get(&h, 42), 0);
    ck_assert_int_eq(mc_hindex_get(&h, 0), 7);
    ck_assert_int_eq(mc_hindex_put(&h, 42, 5), 1);     /* replaces */
    ck_assert_int_eq(mc_hindex_get(&h, 42), 5);
    ck_assert_int_eq(mc_hindex_remove(&h, 42), 5);
    ck_assert_int_eq(mc_hindex_remove(&h, 42), -1);
    ck_assert_int_eq(mc_hindex_get(&h, 42), -1);
    ck_assert_int_eq(mc_hindex_get(&h, 0), 7);
}
END_TEST

START_TEST(test_full)
{
    mc_hslot slots[4];
    memset(slots, 0, sizeof slots);
    mc_hindex h;
    mc_hindex_init(&h, slots, 4);
    for (unsigned k = 0; k < 4; k++)
        ck_assert_int_eq(mc_hindex_put(&h, 1000 + k, k), 1);
    ck_assert_int_eq(mc_hindex_put(&h, 5000, 9), 0);   /* full: refused, no endless probe */
    ck_assert_int_eq(mc_hindex_get(&h, 5000), -1);     /* and a miss ends too */
    for (unsigned k = 0; k < 4; k++)
        ck_assert_int_eq(mc_hindex_get(&h, 1000 + k), (int)k);
}
END_TEST

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Random adds and removals with at most `cap` keys in an index of nslots,
 * keys drawn from a small range so that removals hit often. */
static void random_run(unsigned nslots, unsigned cap, unsigned steps)
{
    mc_hslot slots[64];
    uint64_t keys[64];
    int values[64];
    unsigned n = 0;
    ck_assert_uint_le(nslots, 64);
    memset(slots, 0, sizeof slots);
    mc_hindex h;
    mc_hindex_init(&h, slots, nslots);
    for (unsigned step = 0; step < steps; step++) {
        uint64_t key = (rng() % (3 * cap)) * 0x10001ULL;   /* pointer-like strides */
        unsigned at = n;
        for (unsigned i = 0; i < n; i++)
            if (keys[i] == key)
                at = i;
        if (at < n) {
            ck_assert_int_eq(mc_hindex_remove(&h, key), values[at]);
            keys[at] = keys[n - 1];
            values[at] = values[n - 1];
            n--;
        } else if (n < cap) {
            int v = (int)(rng() % 1000);
            ck_assert_int_eq(mc_hindex_put(&h, key, (unsigned)v), 1);
            keys[n] = key;
            values[n++] = v;
        } else {
            ck_assert_int_eq(mc_hindex_get(&h, key), -1);
        }
        for (unsigned i = 0; i < n; i++)
            ck_assert_int_eq(mc_hindex_get(&h, keys[i]), values[i]);
        unsigned used = 0;
        for (unsigned i = 0; i < nslots; i++)
            used += slots[i].value1 != 0;
        ck_assert_uint_eq(used, n);
    }
}

START_TEST(test_random_half_full)
{
    random_run(16, 8, 20000);
    random_run(64, 32, 20000);
}
END_TEST

START_TEST(test_random_nearly_full)
{
    random_run(8, 7, 20000);     /* runs cover almost the whole index and wrap */
    random_run(16, 15, 20000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("handle_index");
    TCase *tc = tcase_create("index");
    tcase_add_test(tc, test_basic);
    tcase_add_test(tc, test_full);
    tcase_add_test(tc, test_random_half_full);
    tcase_add_test(tc, test_random_nearly_full);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? 1 : 0;
}
