/*
 * test_cluster.c - unit tests of the pieces of jobs across nodes that need
 * no MPI: the launcher's collector against the ranks' relay over loopback
 * (launcher/collect.c, report/relay.c, report/relay_wire.h), the hosts the
 * merge names from the ranks' process lines (report/merge.c), and the
 * choice of srun inside a Slurm allocation (launcher/slurm.c) with a fake
 * srun in PATH.
 */
#define _GNU_SOURCE
#include <check.h>
#include "run_suite.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"
#include "relay.h"
#include "relay_wire.h"
#include "slurm.h"
#include "finding_json.h"
#include "writers.h"

static char dir[64];

static void make_dir(void)
{
    strcpy(dir, "/tmp/mc-cluster-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

static char *slurp(const char *name)
{
    static char buf[4096];
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(test_name_ok)
{
    ck_assert(mc_relay_name_ok("rank-3.jsonl"));
    ck_assert(mc_relay_name_ok("deadlock.dot"));
    ck_assert(mc_relay_name_ok("12"));
    ck_assert(!mc_relay_name_ok(""));
    ck_assert(!mc_relay_name_ok(".hidden"));
    ck_assert(!mc_relay_name_ok("../etc/passwd"));
    ck_assert(!mc_relay_name_ok("a/b"));
    ck_assert(!mc_relay_name_ok("a b"));
    ck_assert(!mc_relay_name_ok(NULL));
}
END_TEST

/* A rank that does not see the directory relays its part; the collector
 * writes it there under the same name, and says it prints the findings
 * when the terminal marker is there. A token other than the launcher's,
 * and a name that leaves the directory, are refused. */
START_TEST(test_relay_to_collector)
{
    make_dir();
    char marker[512], spec[1536];
    snprintf(marker, sizeof marker, "%s/" MC_LIVE_MARKER, dir);
    fclose(fopen(marker, "w"));
    ck_assert_int_eq(mc_collect_start(dir, spec, sizeof spec), 0);
    ck_assert_ptr_nonnull(strstr(spec, "127.0.0.1"));

    mc_relay_setup(spec, "/nonexistent/mpicheck.dir");
    ck_assert(mc_relay_known());
    ck_assert(mc_relay_remote());
    FILE *f = mc_relay_stream("append", "rank-3.jsonl");
    ck_assert_ptr_nonnull(f);
    ck_assert(mc_relay_terminal());
    fputs("{\"kind\":\"done\"}\n", f);
    fflush(f);
    FILE *g = mc_relay_stream("append", "rank-3.jsonl");    /* a second writer appends */
    ck_assert_ptr_nonnull(g);
    fputs("{\"kind\":\"done\"}\n", g);
    fclose(g);
    fclose(f);
    ck_assert_int_lt(mc_relay_connect("append", "../escape"), 0);
    mc_collect_finish();

    const char *got = slurp("rank-3.jsonl");
    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, "{\"kind\":\"done\"}\n{\"kind\":\"done\"}\n");
    /* The token file is there for ranks that share the directory. */
    ck_assert_ptr_nonnull(slurp(MC_RELAY_TOKEN_FILE));
    remove_dir();
}
END_TEST

/* A rank that sees the launcher's token writes itself. */
START_TEST(test_shared_directory_is_local)
{
    make_dir();
    char spec[1536];
    ck_assert_int_eq(mc_collect_start(dir, spec, sizeof spec), 0);
    mc_relay_setup(spec, dir);
    ck_assert(mc_relay_known());
    ck_assert(!mc_relay_remote());
    mc_collect_finish();
    remove_dir();
}
END_TEST

/* A wrong token: the collector refuses the connection. */
START_TEST(test_wrong_token_refused)
{
    make_dir();
    char spec[1536], forged[1600];
    ck_assert_int_eq(mc_collect_start(dir, spec, sizeof spec), 0);
    snprintf(forged, sizeof forged, "0000%s", strchr(spec, '@'));
    mc_relay_setup(forged, "/nonexistent/mpicheck.dir");
    ck_assert(mc_relay_remote());
    ck_assert_int_lt(mc_relay_connect("append", "rank-0.jsonl"), 0);
    mc_collect_finish();
    ck_assert_ptr_null(slurp("rank-0.jsonl"));
    remove_dir();
}
END_TEST

static void write_process(int rank, const char *host)
{
    char p[512];
    snprintf(p, sizeof p, "%s/rank-%d.jsonl", dir, rank);
    FILE *f = fopen(p, "a");
    ck_assert_ptr_nonnull(f);
    mc_process_host h = {.rank = rank, .pid = 100 + rank, .node_id = host[4] == 'b', .local_rank = 0};
    snprintf(h.host, sizeof h.host, "%s", host);
    snprintf(h.source, sizeof h.source, "pmix");
    ck_assert_int_eq(mc_part_write_process(f, &h), 0);
    fclose(f);
}

/* A finding of rank `rank` with one call on each rank in calls[]. */
static void write_finding(int rank, const int *calls, size_t n)
{
    char p[512];
    snprintf(p, sizeof p, "%s/rank-%d.jsonl", dir, rank);
    FILE *f = fopen(p, "a");
    ck_assert_ptr_nonnull(f);
    mc_call_text ct[4];
    memset(ct, 0, sizeof ct);
    int ranks[4];
    for (size_t i = 0; i < n; i++) {
        ct[i].rank = ranks[i] = calls[i];
        ct[i].call = (char *)"MPI_Recv";
    }
    mc_finding fd = {.cls = MC_CLASS_DEADLOCK, .severity = MC_SEV_ERROR, .message = (char *)"two ranks",
                     .ranks = ranks, .nranks = n, .calls = ct, .ncalls = n};
    ck_assert_int_eq(mc_part_write_finding(f, &fd), 0);
    fclose(f);
}

/* A job across nodes: each call of a finding gets its rank's host, from
 * that rank's process line, whichever rank reported it; the JSON keeps it
 * and the text says "rank 1 on nodeb". */
START_TEST(test_hosts_named)
{
    make_dir();
    write_process(0, "nodea");
    write_finding(0, (const int[]){0, 1}, 2);
    write_process(1, "nodeb");
    mc_report_doc doc = {0};
    ck_assert_int_eq(mc_report_merge_dir(dir, &doc), 0);
    ck_assert_int_eq(doc.host_names, 2);
    ck_assert_uint_eq(doc.nfindings, 1);
    ck_assert_str_eq(doc.findings[0].calls[0].host, "nodea");
    ck_assert_str_eq(doc.findings[0].calls[1].host, "nodeb");
    char *text = mc_finding_format_text(&doc.findings[0], 0);
    ck_assert_ptr_nonnull(strstr(text, "rank 1 on nodeb: MPI_Recv"));
    free(text);
    json_t *o = mc_finding_to_json(&doc.findings[0]);
    json_t *c1 = json_array_get(json_object_get(o, "calls"), 1);
    ck_assert_str_eq(json_string_value(json_object_get(c1, "host")), "nodeb");
    json_decref(o);
    mc_report_doc_clear(&doc);
    remove_dir();
}
END_TEST

/* On one host the reports stay as they were: no host anywhere. */
START_TEST(test_one_host_unnamed)
{
    make_dir();
    write_process(0, "laptop");
    write_process(1, "laptop");
    write_finding(1, (const int[]){1}, 1);
    mc_report_doc doc = {0};
    ck_assert_int_eq(mc_report_merge_dir(dir, &doc), 0);
    ck_assert_int_eq(doc.host_names, 1);
    ck_assert_uint_eq(doc.nhosts, 2);
    ck_assert_str_eq(doc.findings[0].calls[0].host, "");
    char *text = mc_finding_format_text(&doc.findings[0], 0);
    ck_assert_ptr_null(strstr(text, " on laptop"));
    free(text);
    mc_report_doc_clear(&doc);
    remove_dir();
}
END_TEST

/* A fake srun in PATH that lists the plugins given. */
static char bindir[64];

static const char *fake_srun(const char *plugins)
{
    strcpy(bindir, "/tmp/mc-srun-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(bindir));
    char p[256];
    snprintf(p, sizeof p, "%s/srun", bindir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\necho 'MPI plugin types are...'\nfor p in %s; do printf '\\t%%s\\n' $p; done\n", plugins);
    fclose(f);
    chmod(p, 0755);
    return bindir;
}

static void remove_srun(void)
{
    char p[256];
    snprintf(p, sizeof p, "%s/srun", bindir);
    unlink(p);
    rmdir(bindir);
}

START_TEST(test_slurm_launcher)
{
    char note[512];
    unsetenv("SLURM_MPI_TYPE");
    unsetenv("SLURM_JOB_ID");
    const char *path = fake_srun("none pmi2 pmix");
    /* Outside an allocation: nothing to say, mpirun as before. */
    ck_assert_ptr_null(mc_slurm_launcher(MC_MPI_OPENMPI, path, note, sizeof note));
    ck_assert_str_eq(note, "");
    setenv("SLURM_JOB_ID", "4711", 1);
    char *cmd = mc_slurm_launcher(MC_MPI_OPENMPI, path, note, sizeof note);
    ck_assert_str_eq(cmd, "srun --kill-on-bad-exit=1 --mpi=pmix");
    ck_assert_ptr_nonnull(strstr(note, "inside Slurm job 4711"));
    free(cmd);
    cmd = mc_slurm_launcher(MC_MPI_MPICH, path, note, sizeof note);
    ck_assert_str_eq(cmd, "srun --kill-on-bad-exit=1 --mpi=pmi2");
    free(cmd);
    remove_srun();
    /* A Slurm without the plugin: mpirun, and the note says why. */
    path = fake_srun("none pmi2");
    ck_assert_ptr_null(mc_slurm_launcher(MC_MPI_OPENMPI, path, note, sizeof note));
    ck_assert_ptr_nonnull(strstr(note, "no pmix plugin"));
    /* SLURM_MPI_TYPE: srun takes it itself. */
    setenv("SLURM_MPI_TYPE", "pmi2", 1);
    cmd = mc_slurm_launcher(MC_MPI_MPICH, path, note, sizeof note);
    ck_assert_str_eq(cmd, "srun --kill-on-bad-exit=1");
    free(cmd);
    unsetenv("SLURM_MPI_TYPE");
    remove_srun();
    /* No srun at all. */
    ck_assert_ptr_null(mc_slurm_launcher(MC_MPI_OPENMPI, "/nonexistent", note, sizeof note));
    ck_assert_ptr_nonnull(strstr(note, "srun is not in PATH"));
    unsetenv("SLURM_JOB_ID");
}
END_TEST

START_TEST(test_slurm_args)
{
    char a0[] = "-np", a1[] = "4", a2[] = "--np", a3[] = "2", a4[] = "-n", a5[] = "./app";
    char *args[] = {a0, a1, a2, a3, a4, a5};
    mc_slurm_args(args, 5);     /* ./app and after are the program's */
    ck_assert_str_eq(args[0], "-n");
    ck_assert_str_eq(args[1], "4");
    ck_assert_str_eq(args[2], "-n");
    ck_assert_str_eq(args[4], "-n");
    ck_assert_str_eq(args[5], "./app");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cluster");
    TCase *tc = tcase_create("cluster");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_name_ok);
    tcase_add_test(tc, test_relay_to_collector);
    tcase_add_test(tc, test_shared_directory_is_local);
    tcase_add_test(tc, test_wrong_token_refused);
    tcase_add_test(tc, test_slurm_launcher);
    tcase_add_test(tc, test_slurm_args);
    tcase_add_test(tc, test_hosts_named);
    tcase_add_test(tc, test_one_host_unnamed);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
