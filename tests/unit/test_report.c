/*
 * test_report.c - unit tests of the report writers (src/report: finding.c,
 * part.c, merge.c, json_report.c): findings, parts, the merge and the JSON
 * report; the output formats are test_report_formats.c. No MPI: parts are
 * written to a mkdtemp directory exactly as ranks would, then merged.
 */
#define _GNU_SOURCE
#include "report_fixture.h"
#include "run_suite.h"
#include "skipped.h"

START_TEST(class_names)
{
    for (int i = 0; i < MC_CLASS_COUNT_; i++) {
        ck_assert_str_eq(mc_class_name((mc_class)i), names[i]);
        ck_assert_int_eq(mc_class_from_name(names[i]), i);
        ck_assert_ptr_nonnull(mc_class_description((mc_class)i));
        ck_assert_int_gt(strlen(mc_class_description((mc_class)i)), 20);
    }
    ck_assert_ptr_null(mc_class_name(MC_CLASS_COUNT_));
    ck_assert_ptr_null(mc_class_name((mc_class)-1));
    ck_assert_int_eq(mc_class_from_name("Deadlock"), -1);
    ck_assert_int_eq(mc_class_from_name(NULL), -1);
    ck_assert_str_eq(mc_severity_name(MC_SEV_ERROR), "error");
    ck_assert_str_eq(mc_severity_name(MC_SEV_WARNING), "warning");
}
END_TEST

START_TEST(merge_folds)
{
    mc_finding a0 = make(MC_CLASS_DEADLOCK, MC_SEV_ERROR, "cycle", 0, "d.c", 7);
    mc_finding a1 = make(MC_CLASS_DEADLOCK, MC_SEV_ERROR, "cycle", 1, "d.c", 7);
    mc_finding other = make(MC_CLASS_DEADLOCK, MC_SEV_ERROR, "cycle", 2, "d.c", 8);
    mc_finding late = make(MC_CLASS_REQUEST_LEAK, MC_SEV_WARNING, "leak", 10, "d.c", 9);
    mc_report_doc doc = {0};

    write_job("rank-0.jsonl", "openmpi", 11);
    write_part("rank-0.jsonl", &a0);
    write_part("rank-1.jsonl", &a1);
    write_part("rank-10.jsonl", &late); /* numeric order: after rank-2 */
    write_part("rank-2.jsonl", &other); /* other line: not identical */
    write_raw("rank-0.json", "garbage\n"); /* not a part name: ignored */
    write_raw("ranks-1.jsonl", "garbage\n");
    /* before MPI_Init a process names its part by pid: read last */
    mc_finding early = make(MC_CLASS_CALL_ORDER, MC_SEV_ERROR, "early", -1, "d.c", 1);
    write_part("rank-pid4242.jsonl", &early);
    mc_finding_clear(&early);
    ck_assert_str_eq(merge_capture(&doc), "");
    ck_assert_uint_eq(doc.nparts, 5);
    ck_assert_uint_eq(doc.nfindings, 4);
    ck_assert_int_eq(doc.findings[3].cls, MC_CLASS_CALL_ORDER);
    ck_assert_int_eq(doc.findings[3].ranks[0], -1);
    mc_finding *f = &doc.findings[0];
    ck_assert_uint_eq(f->nranks, 2);
    ck_assert_int_eq(f->ranks[0], 0);
    ck_assert_int_eq(f->ranks[1], 1);
    ck_assert_uint_eq(f->ncalls, 2);
    ck_assert_int_eq(f->calls[0].rank, 0);
    ck_assert_int_eq(f->calls[1].rank, 1);
    /* arguments keep their order, frames every field */
    ck_assert_str_eq(f->calls[1].args[0].name, "count");
    ck_assert_str_eq(f->calls[1].args[1].value, "0x1");
    ck_assert_uint_eq(f->calls[1].nframes, 3);
    ck_assert_ptr_null(f->calls[1].stack[2].file);
    ck_assert_str_eq(f->calls[1].stack[2].module, "/lib/libc.so.6");
    ck_assert_uint_eq(f->calls[1].stack[2].pc, 0x7f0000001000);
    ck_assert_int_eq(f->calls[1].stack[0].line, 7);
    ck_assert_int_eq(doc.findings[1].calls[0].stack[0].line, 8);
    ck_assert_int_eq(doc.findings[2].cls, MC_CLASS_REQUEST_LEAK);
    ck_assert_int_eq(doc.findings[2].severity, MC_SEV_WARNING);
    mc_report_doc_clear(&doc);
    mc_finding_clear(&a0);
    mc_finding_clear(&a1);
    mc_finding_clear(&other);
    mc_finding_clear(&late);
}
END_TEST

START_TEST(malformed_lines)
{
    mc_finding a = make(MC_CLASS_LOST_MESSAGE, MC_SEV_WARNING, "lost", 0, "m.c", 3);
    mc_report_doc doc = {0};
    char expect[512];

    write_part("rank-0.jsonl", &a);
    write_raw("rank-0.jsonl", "{\"kind\":\"finding\",\"class\":\"nope\"}\n"
                              "\n{\"kind\":\"future\",\"x\":1}\n");
    write_part("rank-0.jsonl", &a);
    write_raw("rank-0.jsonl", "{\"kind\":\"finding\",\"class\":\"dead"); /* crash */
    write_raw("rank-1.jsonl", "not json\n");
    write_part("rank-1.jsonl", &a);
    const char *err = merge_capture(&doc);
    snprintf(expect, sizeof expect,
             "mpicheck: skipping malformed line 2 of %s/rank-0.jsonl\n"
             "mpicheck: skipping malformed line 6 of %s/rank-0.jsonl\n"
             "mpicheck: skipping malformed line 1 of %s/rank-1.jsonl\n", dir, dir, dir);
    ck_assert_str_eq(err, expect);
    ck_assert_uint_eq(doc.nfindings, 1); /* all three copies folded */
    ck_assert_uint_eq(doc.findings[0].ncalls, 3);
    ck_assert_uint_eq(doc.findings[0].nranks, 1);
    ck_assert_int_eq(doc.saw_job_line, 0);
    ck_assert_int_eq(doc.job.nprocs, -1);
    mc_report_doc_clear(&doc);
    mc_finding_clear(&a);
}
END_TEST

START_TEST(job_line)
{
    mc_report_doc doc = {0};
    write_job("rank-0.jsonl", "mpich", 4);
    write_job("rank-1.jsonl", "openmpi", 9); /* the first one wins */
    ck_assert_str_eq(merge_capture(&doc), "");
    ck_assert_int_eq(doc.saw_job_line, 1);
    ck_assert_str_eq(doc.job.mpi_flavor, "mpich");
    ck_assert_str_eq(doc.job.mpi_version, "4.1.4");
    ck_assert_int_eq(doc.job.nprocs, 4);
    ck_assert_str_eq(doc.job.mode, "strict");
    ck_assert_double_eq(doc.job.timeout_s, 10.0);
    mc_report_doc_clear(&doc);
    ck_assert_int_eq(mc_report_merge_dir("/nonexistent/mc", &doc), -1);
}
END_TEST

/* Checks the ranks could not make: counted per process, written in the
 * "done" line, summed by the merge, named in the summary line and the JSON
 * report; a check of a newer version is carried without its text. */
START_TEST(skipped_checks)
{
    mc_report_doc doc = {0};
    mc_skipped(MC_SKIP_UNCHECKED_COMM);
    mc_skipped(MC_SKIP_UNCHECKED_COMM);
    mc_skipped(MC_SKIP_COLL_HANDSHAKE);
    mc_skipped(MC_SKIP_COUNT_);     /* out of range: ignored */
    ck_assert_int_eq(mc_skipped_count(MC_SKIP_UNCHECKED_COMM), 2);
    FILE *fp = open_part("rank-0.jsonl", "a");
    ck_assert_int_eq(mc_part_write_done(fp, 0), 0);
    fclose(fp);
    write_raw("rank-1.jsonl", "{\"kind\":\"done\",\"skipped\":[{\"check\":\"unchecked-communicator\",\"count\":3},"
                              "{\"check\":\"from-the-future\",\"count\":1}]}\n");
    write_raw("rank-2.jsonl", "{\"kind\":\"done\"}\n");
    write_raw("rank-3.jsonl", "{\"kind\":\"done\",\"skipped\":5}\n");
    ck_assert_ptr_nonnull(strstr(merge_capture(&doc), "malformed line 1"));
    ck_assert_int_eq(doc.ndone, 4);
    ck_assert_int_eq(doc.nskipped, 3);
    long unchecked = 0, coll = 0, future = 0;
    for (size_t i = 0; i < doc.nskipped; i++) {
        if (strcmp(doc.skipped[i].check, "unchecked-communicator") == 0) {
            unchecked = doc.skipped[i].count;
            ck_assert_ptr_nonnull(strstr(doc.skipped[i].what, "MPI_Comm_spawn"));
        } else if (strcmp(doc.skipped[i].check, "collective-handshake") == 0) {
            coll = doc.skipped[i].count;
        } else if (strcmp(doc.skipped[i].check, "from-the-future") == 0) {
            future = doc.skipped[i].count;
            ck_assert_ptr_null(doc.skipped[i].what);
        }
    }
    ck_assert_int_eq(unchecked, 5);
    ck_assert_int_eq(coll, 1);
    ck_assert_int_eq(future, 1);
    char line[2048];
    mc_report_skipped_line(&doc, line, sizeof line);
    ck_assert_ptr_nonnull(strstr(line, "mpicheck: not checked: 5 unchecked-communicator ("));
    ck_assert_ptr_nonnull(strstr(line, "; 1 collective-handshake ("));
    char out[600];
    snprintf(out, sizeof out, "%s/report.json", dir);
    ck_assert_int_eq(mc_report_write_json(out, &doc, "0"), 0);
    json_t *j = load("report.json");
    json_t *list = json_object_get(json_object_get(j, "summary"), "skipped");
    ck_assert_int_eq(json_array_size(list), 3);
    json_decref(j);
    mc_report_doc_clear(&doc);
    /* Nothing skipped: no line, no list. */
    mc_report_skipped_line(&doc, line, sizeof line);
    ck_assert_str_eq(line, "");
}
END_TEST

START_TEST(job_report)
{
    mc_report_doc doc = {0};
    char out[512];
    write_job("rank-0.jsonl", "openmpi", 2);
    mc_finding f = make(MC_CLASS_INVALID_ARGUMENT, MC_SEV_ERROR, "bad count", 1, "a.c", 5);
    write_part("rank-1.jsonl", &f);
    mc_finding_clear(&f);
    f = make(MC_CLASS_RESOURCE_LEAK, MC_SEV_WARNING, "comm leak", 0, "a.c", 6);
    write_part("rank-1.jsonl", &f);
    mc_finding_clear(&f);
    merge_capture(&doc);
    snprintf(out, sizeof out, "%s/report.json", dir);
    ck_assert_int_eq(mc_report_write_json(out, &doc, "1.2.3"), 0);
    json_t *j = load("report.json"), *fi;
    ck_assert_str_eq(json_string_value(json_object_get(j, "tool")), "mpicheck");
    ck_assert_str_eq(json_string_value(json_object_get(j, "version")), "1.2.3");
    json_t *mpi = json_object_get(j, "mpi");
    ck_assert_str_eq(json_string_value(json_object_get(mpi, "flavor")), "openmpi");
    ck_assert_str_eq(json_string_value(json_object_get(mpi, "version")), "4.1.4");
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nprocs")), 2);
    ck_assert_str_eq(json_string_value(json_object_get(j, "mode")), "strict");
    ck_assert(json_is_real(json_object_get(j, "timeout_s")));
    ck_assert_double_eq(json_real_value(json_object_get(j, "timeout_s")), 10.0);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "findings")), 2);
    fi = json_array_get(json_object_get(j, "findings"), 0);
    ck_assert_ptr_null(json_object_get(fi, "kind"));
    ck_assert_str_eq(json_string_value(json_object_get(fi, "class")), "invalid-argument");
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "summary"), "errors")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(j, "summary"), "warnings")), 1);
    int e = -1, w = -1;
    mc_report_count(&doc, &e, &w);
    ck_assert(e == 1 && w == 1);
    json_decref(j);
    /* unknown job header: nulls, never made-up values */
    mc_report_doc_clear(&doc);
    doc.job.nprocs = -1;
    ck_assert_int_eq(mc_report_write_json(out, &doc, "1.2.3"), 0);
    j = load("report.json");
    ck_assert(json_is_null(json_object_get(j, "nprocs")));
    ck_assert(json_is_null(json_object_get(j, "timeout_s")));
    ck_assert(json_is_null(json_object_get(j, "mode")));
    ck_assert(json_is_null(json_object_get(json_object_get(j, "mpi"), "flavor")));
    ck_assert_uint_eq(json_array_size(json_object_get(j, "findings")), 0);
    json_decref(j);
}
END_TEST

START_TEST(odd_strings)
{
    const char *msg = "say \"hi\"\\ \n\ttab, caf\xc3\xa9 \xe2\x86\x92 \xf0\x9d\x84\x9e end";
    mc_finding f = make(MC_CLASS_CALL_ORDER, MC_SEV_ERROR, msg, 3, "d\xc3\xafr/\"q\".c", 2);
    mc_report_doc doc = {0};
    free(f.calls[0].args[0].value);
    f.calls[0].args[0].value = xstrdup("bad \xff byte");
    write_part("rank-3.jsonl", &f);
    merge_capture(&doc);
    ck_assert_uint_eq(doc.nfindings, 1);
    ck_assert_str_eq(doc.findings[0].message, msg);
    ck_assert_str_eq(doc.findings[0].calls[0].stack[0].file, "d\xc3\xafr/\"q\".c");
    /* not UTF-8: the byte becomes U+FFFD instead of failing the line */
    ck_assert_str_eq(doc.findings[0].calls[0].args[0].value, "bad \xef\xbf\xbd byte");
    mc_report_doc_clear(&doc);
    mc_finding_clear(&f);
}
END_TEST

/* Without a file the top frame is identified by function and module (each
 * process maps libraries at other addresses), or by pc when even the
 * function is unknown. */
START_TEST(fold_by_pc)
{
    mc_finding f = make(MC_CLASS_TYPE_MISMATCH, MC_SEV_ERROR, "int vs double", 0, NULL, 0);
    mc_report_doc doc = {0};
    write_part("rank-0.jsonl", &f);
    f.ranks[0] = f.calls[0].rank = 1;
    f.calls[0].stack[0].pc += 0x100000;
    write_part("rank-1.jsonl", &f);              /* same function, other address: folded */
    free(f.calls[0].stack[0].function);
    f.calls[0].stack[0].function = xstrdup("other_function");
    write_part("rank-1.jsonl", &f);              /* other function: kept apart */
    free(f.calls[0].stack[0].function);
    f.calls[0].stack[0].function = NULL;
    write_part("rank-1.jsonl", &f);              /* no function, pc A */
    f.calls[0].stack[0].pc += 8;
    write_part("rank-1.jsonl", &f);              /* no function, other pc: kept apart */
    f.calls[0].stack[0].pc -= 8;
    free(f.calls[0].stack[0].module);
    f.calls[0].stack[0].module = xstrdup("/other/lib.so");
    write_part("rank-1.jsonl", &f);              /* other module: kept apart */
    merge_capture(&doc);
    ck_assert_uint_eq(doc.nfindings, 5);
    ck_assert_uint_eq(doc.findings[0].nranks, 2);
    ck_assert_uint_eq(doc.findings[0].ncalls, 2);
    ck_assert_uint_eq(doc.findings[1].ncalls, 1);
    mc_report_doc_clear(&doc);
    mc_finding_clear(&f);
}
END_TEST

/* A stripped program's frames: the address in the module's file (offset)
 * is the same on every rank where the pcs differ, so it identifies the
 * frame, ahead of the function; the text shows it for addr2line. */
START_TEST(fold_by_offset)
{
    mc_finding f = make(MC_CLASS_RESOURCE_LEAK, MC_SEV_WARNING, "1 communicator leaked", 0, NULL, 0);
    mc_report_doc doc = {0};
    mc_frame *fr = &f.calls[0].stack[0];
    free(fr->file);
    fr->file = NULL;
    free(fr->function);
    fr->function = NULL;
    fr->offset = 0x1a39;
    write_part("rank-0.jsonl", &f);
    f.ranks[0] = f.calls[0].rank = 1;
    fr->pc += 0x7000000;
    write_part("rank-1.jsonl", &f);              /* other pc, same offset: folded */
    fr->offset = 0x1a4b;
    write_part("rank-1.jsonl", &f);              /* another call site: kept apart */
    fr->offset = 0x1a39;
    fr->function = xstrdup("BI_TransUserComm");
    write_part("rank-1.jsonl", &f);              /* same offset, a name seen here only: folded */
    merge_capture(&doc);
    ck_assert_uint_eq(doc.nfindings, 2);
    ck_assert_uint_eq(doc.findings[0].nranks, 2);
    ck_assert_uint_eq(doc.findings[0].ncalls, 3);
    ck_assert_uint_eq(doc.findings[0].calls[0].stack[0].offset, 0x1a39);
    ck_assert_uint_eq(doc.findings[1].calls[0].stack[0].offset, 0x1a4b);
    char *text = mc_finding_format_text(&doc.findings[1], 0);
    ck_assert_ptr_nonnull(strstr(text, "mpicheck:     at ?? (/usr/bin/prog +0x1a4b)\n"));
    free(text);
    mc_report_doc_clear(&doc);
    mc_finding_clear(&f);
}
END_TEST


int main(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, class_names);
    tcase_add_test(tc, merge_folds);
    tcase_add_test(tc, fold_by_offset);
    tcase_add_test(tc, malformed_lines);
    tcase_add_test(tc, job_line);
    tcase_add_test(tc, job_report);
    tcase_add_test(tc, skipped_checks);
    tcase_add_test(tc, odd_strings);
    tcase_add_test(tc, fold_by_pc);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
