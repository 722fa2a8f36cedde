/*
 * test_call_site.c - unit tests of where a finding says a call was made
 * (report/finding.c, mc_call_site): the rule the deadlock and
 * collective-mismatch texts and the SARIF location share.
 */
#include <check.h>
#include "run_suite.h"
#include <stdlib.h>
#include "finding.h"

/* Where a call was made: the innermost frame with a source file, but never
 * the C runtime's below main (a stripped program's MPI_Send was shown as
 * made at libc_start_call_main.h:58). */
START_TEST(call_site)
{
    mc_frame stripped[] = {
        {.function = NULL, .file = NULL, .module = "/usr/bin/hpcc", .pc = 0x1234},
        {.function = "__libc_start_call_main", .file = "../sysdeps/nptl/libc_start_call_main.h", .line = 58},
        {.function = "__libc_start_main", .file = "../csu/libc-start.c", .line = 360},
    };
    mc_call_text c = {.rank = 0, .call = "MPI_Send", .stack = stripped, .nframes = 3};
    char buf[64];
    ck_assert_ptr_null(mc_call_site(&c));
    /* No source line: the text names the module and offset (addr2line's
     * input, the same on every rank), or the function when it is known. */
    ck_assert_str_eq(mc_call_site_text(&c, buf, sizeof buf), "");
    stripped[0].offset = 0x1191;
    ck_assert_str_eq(mc_call_site_text(&c, buf, sizeof buf), "hpcc+0x1191");
    mc_frame lib[] = {
        {.function = "BI_TransUserComm", .file = NULL, .module = "/usr/lib/libscalapack.so", .offset = 0x40b10},
        {.function = "__libc_start_main", .file = "../csu/libc-start.c", .line = 360},
    };
    c.stack = lib;
    c.nframes = 2;
    ck_assert_ptr_null(mc_call_site(&c));
    ck_assert_str_eq(mc_call_site_text(&c, buf, sizeof buf), "BI_TransUserComm");
    c.stack = stripped + 1;     /* nothing but the C runtime */
    ck_assert_str_eq(mc_call_site_text(&c, buf, sizeof buf), "");
    c.stack = stripped;
    c.nframes = 3;
    mc_frame app[] = {
        {.function = "helper", .file = NULL, .module = "/usr/lib/libfoo.so"},
        {.function = "exchange", .file = "/home/u/src/ring.c", .line = 12},
        {.function = "main", .file = "/home/u/src/main.c", .line = 40},
        {.function = "__libc_start_main", .file = "../csu/libc-start.c", .line = 360},
    };
    c.stack = app;
    c.nframes = 4;
    ck_assert_ptr_eq(mc_call_site(&c), &app[1]);
    ck_assert_str_eq(mc_call_site_text(&c, buf, sizeof buf), "ring.c:12");
    c.nframes = 0;
    ck_assert_ptr_null(mc_call_site(&c));
    ck_assert_ptr_null(mc_call_site(NULL));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("call_site");
    TCase *tc = tcase_create("frames");
    tcase_add_test(tc, call_site);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
