/*
 * test_finding_members.c - the optional members of a finding and its calls:
 * a call's job (spawned processes, whose world ranks repeat their
 * parents'), a call's thread (a deadlock among threads) and a finding's
 * likely cause, in the text block and through a part line (written, read
 * back), absent when unset; the thread also through the call's text form
 * (calltext.c), which the deadlock detector's answers carry.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "calltext.h"
#include "finding.h"
#include "finding_json.h"
#include "run_suite.h"
#include "writers.h"

static mc_finding one_call(void)
{
    mc_finding f = {MC_CLASS_DEADLOCK, MC_SEV_ERROR, strdup("two ranks wait"), malloc(sizeof(int)), 1,
                    calloc(1, sizeof(mc_call_text)), 1};
    f.ranks[0] = 1;
    f.calls[0].rank = 1;
    f.calls[0].call = strdup("MPI_Recv");
    return f;
}

static const json_t *first_call(const json_t *o)
{
    return json_array_get(json_object_get(o, "calls"), 0);
}

START_TEST(job_in_text_and_part_line)
{
    mc_finding f = one_call();
    snprintf(f.calls[0].job, sizeof f.calls[0].job, "spawn 0.1");
    char *s = mc_finding_format_text(&f, 0);
    ck_assert_ptr_nonnull(strstr(s, "mpicheck:   rank 1 of spawn 0.1: MPI_Recv("));
    free(s);
    json_t *o = mc_finding_to_json(&f);
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(json_string_value(json_object_get(first_call(o), "job")), "spawn 0.1");
    mc_finding back;
    memset(&back, 0, sizeof back);
    ck_assert_int_eq(mc_finding_from_json(o, &back), 0);
    ck_assert_str_eq(back.calls[0].job, "spawn 0.1");
    mc_finding_clear(&back);
    json_decref(o);
    f.calls[0].job[0] = 0;      /* the job mpicheck started: no member */
    o = mc_finding_to_json(&f);
    ck_assert_ptr_null(json_object_get(first_call(o), "job"));
    s = mc_finding_format_text(&f, 0);
    ck_assert_ptr_nonnull(strstr(s, "mpicheck:   rank 1: MPI_Recv("));
    free(s);
    json_decref(o);
    mc_finding_clear(&f);
}
END_TEST

START_TEST(cause_through_part_line)
{
    mc_finding f = one_call();
    f.cause = strdup("a tag mismatch?");
    json_t *o = mc_finding_to_json(&f);
    ck_assert_str_eq(json_string_value(json_object_get(o, "cause")), "a tag mismatch?");
    mc_finding back;
    memset(&back, 0, sizeof back);
    ck_assert_int_eq(mc_finding_from_json(o, &back), 0);
    ck_assert_str_eq(back.cause, "a tag mismatch?");
    mc_finding_clear(&back);
    json_decref(o);
    free(f.cause);
    f.cause = NULL;             /* none: no member */
    o = mc_finding_to_json(&f);
    ck_assert_ptr_null(json_object_get(o, "cause"));
    json_decref(o);
    mc_finding_clear(&f);
}
END_TEST

START_TEST(thread_everywhere)
{
    mc_finding f = one_call();
    f.calls[0].tid = 4312;
    snprintf(f.calls[0].thread_name, sizeof f.calls[0].thread_name, "receiver");
    char *s = mc_finding_format_text(&f, 0);
    ck_assert_ptr_nonnull(strstr(s, "mpicheck:   rank 1, thread 4312 \"receiver\": MPI_Recv("));
    free(s);
    json_t *o = mc_finding_to_json(&f);
    const json_t *t = json_object_get(first_call(o), "thread");
    ck_assert_int_eq(json_integer_value(json_object_get(t, "id")), 4312);
    ck_assert_str_eq(json_string_value(json_object_get(t, "name")), "receiver");
    mc_finding back;
    memset(&back, 0, sizeof back);
    ck_assert_int_eq(mc_finding_from_json(o, &back), 0);
    ck_assert_int_eq(back.calls[0].tid, 4312);
    ck_assert_str_eq(back.calls[0].thread_name, "receiver");
    mc_finding_clear(&back);
    json_decref(o);
    /* the text form of a call, both ways */
    char wire[1024];
    mc_calltext_serialize(&f.calls[0], wire, sizeof wire);
    mc_call_text ct;
    mc_calltext_parse(wire, 1, &ct);
    ck_assert_int_eq(ct.tid, 4312);
    ck_assert_str_eq(ct.thread_name, "receiver");
    ck_assert_str_eq(ct.call, "MPI_Recv");
    mc_finding tmp = {.calls = malloc(sizeof ct), .ncalls = 1};
    tmp.calls[0] = ct;
    mc_finding_clear(&tmp);
    /* no thread: no member, no words */
    f.calls[0].tid = 0;
    o = mc_finding_to_json(&f);
    ck_assert_ptr_null(json_object_get(first_call(o), "thread"));
    json_decref(o);
    s = mc_finding_format_text(&f, 0);
    ck_assert_ptr_null(strstr(s, "thread"));
    free(s);
    mc_finding_clear(&f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("finding_members");
    TCase *tc = tcase_create("members");
    tcase_add_test(tc, job_in_text_and_part_line);
    tcase_add_test(tc, cause_through_part_line);
    tcase_add_test(tc, thread_everywhere);
    suite_add_tcase(s, tc);
    return mc_run_suite(s, CK_FORK) ? EXIT_FAILURE : EXIT_SUCCESS;
}
