/*
 * test_skipped.c - the checker's own allocations count their failures as a
 * skipped check (report/skipped.c), and the test knob that makes every N-th
 * one fail works only once armed (the launcher never arms it).
 */
#include <check.h>
#include "run_suite.h"
#include <stdlib.h>
#include <string.h>
#include "skipped.h"

START_TEST(allocations_count_their_failures)
{
    long before = mc_skipped_count(MC_SKIP_NO_MEMORY);
    void *p = mc_malloc(16), *q = mc_calloc(4, 4);
    char *s = mc_strdup("abc");
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_nonnull(q);
    ck_assert_str_eq(s, "abc");
    p = mc_realloc(p, 64);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(mc_skipped_count(MC_SKIP_NO_MEMORY), before);
    free(p);
    free(q);
    free(s);
    /* Set but not armed: nothing fails. */
    setenv("MPICHECK_INTERNAL_TEST_ALLOC_FAIL", "2", 1);
    for (int i = 0; i < 8; i++) {
        void *r = mc_malloc(8);
        ck_assert_ptr_nonnull(r);
        free(r);
    }
    ck_assert_int_eq(mc_skipped_count(MC_SKIP_NO_MEMORY), before);
    /* Armed: every second allocation fails, each failure counted once. */
    mc_alloc_test_arm();
    int failed = 0;
    for (int i = 0; i < 8; i++) {
        void *r = i % 2 ? mc_calloc(1, 8) : mc_malloc(8);
        failed += r == NULL;
        free(r);
    }
    ck_assert_int_eq(failed, 4);
    ck_assert_int_eq(mc_skipped_count(MC_SKIP_NO_MEMORY), before + 4);
    setenv("MPICHECK_INTERNAL_TEST_ALLOC_FAIL", "x", 1);    /* not a number: ignored */
    mc_alloc_test_arm();
    void *r = mc_malloc(8);
    ck_assert_ptr_nonnull(r);
    free(r);
    ck_assert_str_eq(mc_skipped_name(MC_SKIP_NO_MEMORY), "checker-memory");
    ck_assert_ptr_nonnull(strstr(mc_skipped_what(MC_SKIP_NO_MEMORY), "allocations"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("skipped");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, allocations_count_their_failures);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_NOFORK);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
