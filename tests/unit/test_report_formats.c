/*
 * test_report_formats.c - unit tests of the report's output formats
 * (src/report: sarif.c, text.c): the SARIF log and the text the terminal
 * shows. No MPI: parts are written to a mkdtemp directory exactly as ranks
 * would, then merged (report_fixture.h).
 */
#define _GNU_SOURCE
#include "report_fixture.h"
#include "run_suite.h"

START_TEST(sarif)
{
    mc_report_doc doc = {0};
    char out[512];
    mc_finding f = make(MC_CLASS_COLLECTIVE_MISMATCH, MC_SEV_WARNING, "bcast vs reduce", 0,
                        "src/x.c", 42);
    write_part("rank-0.jsonl", &f);
    f.ranks[0] = f.calls[0].rank = 1;
    write_part("rank-1.jsonl", &f);
    mc_finding_clear(&f);
    /* "." and ".." segments are folded (no such file here: as text). */
    f = make(MC_CLASS_DEADLOCK, MC_SEV_ERROR, "stuck", 2, "/abs/./build/../my file.c", 9);
    write_part("rank-2.jsonl", &f);
    mc_finding_clear(&f);
    f = make(MC_CLASS_RESOURCE_LEAK, MC_SEV_WARNING, "no file", 3, NULL, 0);
    write_part("rank-3.jsonl", &f);
    mc_finding_clear(&f);
    merge_capture(&doc);
    snprintf(out, sizeof out, "%s/out.sarif", dir);
    ck_assert_int_eq(mc_report_write_sarif(out, &doc, "1.2.3"), 0);
    json_t *j = load("out.sarif");
    ck_assert_str_eq(json_string_value(JGET(j, "version")), "2.1.0");
    json_t *run = json_array_get(JGET(j, "runs"), 0);
    json_t *rules = JGET(JGET(JGET(run, "tool"), "driver"), "rules");
    ck_assert_uint_eq(json_array_size(rules), MC_CLASS_COUNT_);
    for (int i = 0; i < MC_CLASS_COUNT_; i++)
        ck_assert_str_eq(json_string_value(JGET(json_array_get(rules, i), "id")), names[i]);
    json_t *results = JGET(run, "results"), *r = json_array_get(results, 0);
    ck_assert_uint_eq(json_array_size(results), 3);
    ck_assert_str_eq(json_string_value(JGET(r, "ruleId")), "collective-mismatch");
    ck_assert_int_eq(json_integer_value(JGET(r, "ruleIndex")), 2);
    ck_assert_str_eq(json_string_value(JGET(r, "level")), "warning");
    ck_assert_str_eq(json_string_value(JGET(JGET(r, "message"), "text")),
                     "bcast vs reduce (ranks 0, 1)");
    json_t *pl = JGET(json_array_get(JGET(r, "locations"), 0), "physicalLocation");
    ck_assert_str_eq(json_string_value(JGET(JGET(pl, "artifactLocation"), "uri")), "src/x.c");
    ck_assert_int_eq(json_integer_value(JGET(JGET(pl, "region"), "startLine")), 42);
    json_t *rel = json_array_get(JGET(r, "relatedLocations"), 0);
    ck_assert_str_eq(json_string_value(JGET(JGET(rel, "message"), "text")), "rank 1: MPI_Send");
    r = json_array_get(results, 1);
    ck_assert_str_eq(json_string_value(JGET(r, "level")), "error");
    pl = JGET(json_array_get(JGET(r, "locations"), 0), "physicalLocation");
    ck_assert_str_eq(json_string_value(JGET(JGET(pl, "artifactLocation"), "uri")),
                     "file:///abs/my%20file.c");
    r = json_array_get(results, 2);
    ck_assert_uint_eq(json_array_size(JGET(r, "locations")), 0);
    ck_assert_str_eq(json_string_value(JGET(JGET(r, "message"), "text")), "no file (rank 3)");
    json_decref(j);
    mc_report_doc_clear(&doc);
}
END_TEST

START_TEST(sarif_rank_ranges)
{
    mc_finding f = make(MC_CLASS_REQUEST_LEAK, MC_SEV_WARNING, "leak", 0, "r.c", 1);
    int ranks[] = {-1, 0, 1, 2, 3, 7, 9, 10};
    mc_report_doc doc = {0};
    char out[512];
    free(f.ranks);
    f.ranks = malloc(sizeof ranks);
    memcpy(f.ranks, ranks, sizeof ranks);
    f.nranks = 8;
    doc.findings = &f;
    doc.nfindings = 1;
    snprintf(out, sizeof out, "%s/r.sarif", dir);
    ck_assert_int_eq(mc_report_write_sarif(out, &doc, NULL), 0);
    json_t *j = load("r.sarif"), *run = json_array_get(JGET(j, "runs"), 0);
    json_t *r = json_array_get(JGET(run, "results"), 0);
    ck_assert_str_eq(json_string_value(JGET(JGET(r, "message"), "text")),
                     "leak (ranks ?, 0-3, 7, 9, 10)");
    /* no version known: no member (SARIF has no null version) */
    ck_assert_ptr_null(JGET(JGET(JGET(run, "tool"), "driver"), "version"));
    json_decref(j);
    mc_finding_clear(&f);
}
END_TEST

START_TEST(text_format)
{
    mc_finding f = make(MC_CLASS_INVALID_ARGUMENT, MC_SEV_ERROR, "count is -1\nsecond line",
                        1, "prog.c", 12);
    mc_call_text *c = f.calls;
    c->stack = realloc(c->stack, 5 * sizeof *c->stack);
    c->stack[3] = c->stack[2];       /* libc frame: after main, cut */
    c->stack[2] = c->stack[1];       /* main */
    c->stack[1] = frame(NULL, NULL, 0, "/usr/lib/libfoo.so", 0x7f00000a0);
    c->stack[4] = frame(NULL, NULL, 0, NULL, 0x1234);
    c->nframes = 5;
    char *s = mc_finding_format_text(&f, 0);
    ck_assert_str_eq(s, "mpicheck: ERROR invalid-argument\n"
                        "mpicheck:   count is -1\n"
                        "mpicheck:   second line\n"
                        "mpicheck:   rank 1: MPI_Send(count=-1, buf=0x1)\n"
                        "mpicheck:     at send_it (prog.c:12)\n"
                        "mpicheck:     at ?? (/usr/lib/libfoo.so @ 0x7f00000a0)\n"
                        "mpicheck:     at main (prog.c:30)\n");
    free(s);
    /* without main in sight: at most 12 frames; unknown everything */
    free(c->stack[2].function);
    c->stack[2].function = xstrdup("not_main");
    s = mc_finding_format_text(&f, 0);
    ck_assert_ptr_nonnull(strstr(s, "mpicheck:     at __libc_start_main (/lib/libc.so.6 @ 0x7f0000001000)\n"
                                    "mpicheck:     at 0x1234\n"));
    free(s);
    f.severity = MC_SEV_WARNING;
    s = mc_finding_format_text(&f, 1);
    ck_assert_ptr_eq(strstr(s, "mpicheck: \033[33mWARNING\033[0m \033[1minvalid-argument\033[0m\n"), s);
    free(s);
    f.severity = MC_SEV_ERROR;
    s = mc_finding_format_text(&f, 1);
    ck_assert_ptr_eq(strstr(s, "mpicheck: \033[1;31mERROR\033[0m \033[1minvalid-argument\033[0m\n"), s);
    free(s);
    mc_finding_clear(&f);
}
END_TEST

START_TEST(text_frame_limit)
{
    mc_finding f = make(MC_CLASS_DEADLOCK, MC_SEV_ERROR, "m", 0, "x.c", 1);
    mc_call_text *c = f.calls;
    c->stack = realloc(c->stack, 20 * sizeof *c->stack);
    free(c->stack[1].function);
    c->stack[1].function = xstrdup("helper"); /* no main in this stack */
    for (size_t i = 3; i < 20; i++)
        c->stack[i] = frame("deep", "x.c", (int)i, NULL, i);
    c->nframes = 20;
    char *s = mc_finding_format_text(&f, 0);
    int n = 0;
    for (const char *p = s; (p = strstr(p, "mpicheck:     at ")) != NULL; p++)
        n++;
    ck_assert_int_eq(n, 12);
    ck_assert_ptr_nonnull(strstr(s, "at deep (x.c:11)\n"));
    ck_assert_ptr_null(strstr(s, "at deep (x.c:12)"));
    free(s);
    mc_finding_clear(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("report_formats");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, sarif);
    tcase_add_test(tc, sarif_rank_ranges);
    tcase_add_test(tc, text_format);
    tcase_add_test(tc, text_frame_limit);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
