/*
 * test_filter.c - --checks lists and suppression entries (report/filter.c),
 * and the compressed rank sets of the terminal report (report/text.c).
 */
#include <check.h>
#include "run_suite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "filter.h"
#include "writers.h"

static char err[2048];

/* A finding of cls with one call: fn at the given frames (function, file, line). */
static mc_finding one(mc_class cls, const char *fn, int nframes, const char *const *funcs,
                      const char *const *files, const int *lines)
{
    static mc_frame frames[8];
    static mc_call_text call;
    memset(&call, 0, sizeof call);
    for (int i = 0; i < nframes; i++)
        frames[i] = (mc_frame){.function = (char *)funcs[i], .file = (char *)files[i], .line = lines[i]};
    call.call = (char *)fn;
    call.stack = frames;
    call.nframes = (size_t)nframes;
    mc_finding f = {.cls = cls, .calls = &call, .ncalls = 1};
    return f;
}

static char *write_file(const char *text)
{
    static char path[] = "/tmp/mcfilterXXXXXX";
    strcpy(path, "/tmp/mcfilterXXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

START_TEST(checks_lists)
{
    mc_filter *f = mc_filter_new();
    char off[256];
    ck_assert_int_eq(mc_filter_check_on(f, MC_CLASS_RESOURCE_LEAK), 1);
    ck_assert_int_eq(mc_filter_set_checks(f, "all,-resource-leak,-lost-message", err, sizeof err), 0);
    ck_assert_int_eq(mc_filter_check_on(f, MC_CLASS_RESOURCE_LEAK), 0);
    ck_assert_int_eq(mc_filter_check_on(f, MC_CLASS_LOST_MESSAGE), 0);
    ck_assert_int_eq(mc_filter_check_on(f, MC_CLASS_DEADLOCK), 1);
    mc_filter_checks_off_text(f, off, sizeof off);
    ck_assert_str_eq(off, "resource-leak, lost-message");
    ck_assert_int_eq(mc_filter_set_checks(f, "none,deadlock", err, sizeof err), 0);
    ck_assert_int_eq(mc_filter_check_on(f, MC_CLASS_DEADLOCK), 1);
    ck_assert_int_eq(mc_filter_check_on(f, MC_CLASS_TYPE_MISMATCH), 0);
    /* A bad name changes nothing and lists the names. */
    ck_assert_int_eq(mc_filter_set_checks(f, "all,-deadlok", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown check 'deadlok'"));
    ck_assert_ptr_nonnull(strstr(err, "potential-deadlock"));
    ck_assert_int_eq(mc_filter_check_on(f, MC_CLASS_TYPE_MISMATCH), 0);
    mc_filter_free(f);
}
END_TEST

START_TEST(suppression_matching)
{
    const char *path = write_file(
        "# comment\n"
        "{\n  by-line\n  mpicheck:resource-leak\n  src:setup.c:12\n}\n"
        "{\n  by-call\n  mpicheck:type-*\n  call:MPI_Re?v\n}\n"
        "{\n  deep\n  mpicheck:deadlock\n  fun:wait_all\n  ...\n  fun:main\n}\n"
        "{\n  cxx\n  mpicheck:request-leak\n  fun:Grid::set(int (&) [3])\n}\n");
    mc_filter *f = mc_filter_new();
    ck_assert_int_eq(mc_filter_load(f, path, err, sizeof err), 0);
    unlink(path);
    const char *fn2[] = {"make", "main"}, *fl2[] = {"/src/app/setup.c", "main.c"};
    int ln2[] = {12, 40};
    mc_finding a = one(MC_CLASS_RESOURCE_LEAK, "MPI_Type_contiguous", 2, fn2, fl2, ln2);
    ck_assert_str_eq(mc_filter_match(f, &a), "by-line");
    int other[] = {13, 40};
    a = one(MC_CLASS_RESOURCE_LEAK, "MPI_Type_contiguous", 2, fn2, fl2, other);
    ck_assert_ptr_null(mc_filter_match(f, &a));
    a = one(MC_CLASS_TYPE_MISMATCH, "MPI_Recv", 2, fn2, fl2, ln2);
    ck_assert_str_eq(mc_filter_match(f, &a), "by-call");
    a = one(MC_CLASS_TYPE_MISMATCH, "MPI_Send", 2, fn2, fl2, ln2);
    ck_assert_ptr_null(mc_filter_match(f, &a));
    const char *fn4[] = {"wait_all", "step", "loop", "main"}, *fl4[] = {"a.c", "a.c", "a.c", "a.c"};
    int ln4[] = {1, 2, 3, 4};
    a = one(MC_CLASS_DEADLOCK, "MPI_Waitall", 4, fn4, fl4, ln4);
    ck_assert_str_eq(mc_filter_match(f, &a), "deep");
    a = one(MC_CLASS_DEADLOCK, "MPI_Waitall", 3, fn4, fl4, ln4);    /* no main */
    ck_assert_ptr_null(mc_filter_match(f, &a));
    /* A demangled C++ name matches itself, "[3]" and all (fnmatch alone would not). */
    const char *fncxx[] = {"Grid::set(int (&) [3])"}, *flcxx[] = {"grid.hpp"};
    int lncxx[] = {0};
    a = one(MC_CLASS_REQUEST_LEAK, "MPI_Isend", 1, fncxx, flcxx, lncxx);
    ck_assert_str_eq(mc_filter_match(f, &a), "cxx");
    /* The generated entry matches its own finding. */
    a = one(MC_CLASS_RESOURCE_LEAK, "MPI_Comm_dup", 2, fn2, fl2, other);
    char *entry = mc_filter_entry_for(&a);
    ck_assert_ptr_nonnull(strstr(entry, "   call:MPI_Comm_dup\n   src:setup.c:13\n   fun:main\n}"));
    mc_filter *g = mc_filter_new();
    const char *gen = write_file(entry);
    ck_assert_int_eq(mc_filter_load(g, gen, err, sizeof err), 0);
    unlink(gen);
    ck_assert_str_eq(mc_filter_match(g, &a), "<insert_a_suppression_name_here>");
    a = one(MC_CLASS_RESOURCE_LEAK, "MPI_Comm_dup", 2, fn2, fl2, ln2);
    ck_assert_ptr_null(mc_filter_match(g, &a));
    free(entry);
    mc_filter_free(f);
    mc_filter_free(g);
}
END_TEST

START_TEST(malformed_files)
{
    static const struct { const char *text, *want; } bad[] = {
        {"x\n", ":1: expected '{'"},
        {"{\n}\n", ":2: the entry has no name"},
        {"{\n n\n}\n", ":3: the entry has no 'mpicheck:CLASS' line"},
        {"{\n n\n mpicheck:nope\n}\n", ":3: unknown class"},
        {"{\n n\n mpicheck:deadlock\n obj:x\n}\n", ":4: expected 'call:FUNCTION'"},
        {"{\n n\n mpicheck:deadlock\n", ":1: the entry opened here has no '}'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mc_filter *f = mc_filter_new();
        const char *path = write_file(bad[i].text);
        ck_assert_int_eq(mc_filter_load(f, path, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[i].want) && strstr(err, path), "case %zu: %s", i, err);
        unlink(path);
        mc_filter_free(f);
    }
    mc_filter *f = mc_filter_new();
    ck_assert_int_eq(mc_filter_load(f, "/nonexistent/x.supp", err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "cannot read the suppressions file /nonexistent/x.supp"));
    mc_filter_free(f);
}
END_TEST

START_TEST(rank_sets)
{
    char buf[64];
    int a[] = {0, 1, 2, 3, 4, 5, 6, 7, 9}, b[] = {3}, c[] = {0, 2, 4, 5, 6};
    ck_assert_str_eq(mc_ranks_text(a, 9, buf, sizeof buf), "0-7,9");
    ck_assert_str_eq(mc_ranks_text(b, 1, buf, sizeof buf), "3");
    ck_assert_str_eq(mc_ranks_text(c, 5, buf, sizeof buf), "0,2,4-6");
    ck_assert_str_eq(mc_ranks_text(c, 5, buf, 6), "0...");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("filter");
    TCase *tc = tcase_create("filter");
    tcase_add_test(tc, checks_lists);
    tcase_add_test(tc, suppression_matching);
    tcase_add_test(tc, malformed_files);
    tcase_add_test(tc, rank_sets);
    suite_add_tcase(s, tc);
    return mc_run_suite(s, CK_FORK) ? 1 : 0;
}
