/*
 * report_fixture.h - what the report writers' unit tests share: findings
 * made like a check makes them, a mkdtemp directory of rank parts written
 * as ranks would, the merge of that directory, and its JSON read back.
 * Included by test_report.c and test_report_formats.c only.
 */
#ifndef MPICHECK_REPORT_FIXTURE_H
#define MPICHECK_REPORT_FIXTURE_H

#include <check.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "writers.h"

#define JGET(j, k) json_object_get((j), (k))

static const char *const names[MC_CLASS_COUNT_] = {
    "deadlock", "potential-deadlock", "collective-mismatch", "type-mismatch",
    "invalid-argument", "request-free-active", "request-leak", "resource-leak",
    "lost-message", "buffer-modified", "intercomm-mismatch",
    "intercomm-nonuniform", "call-order", "rank-exit", "buffer-overlap", "mpi-error", "hang"};

static char *xstrdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static inline mc_frame frame(const char *fn, const char *file, int line, const char *mod,
                      uintptr_t pc)
{
    mc_frame f = {xstrdup(fn), xstrdup(file), line, xstrdup(mod), pc};
    return f;
}

/* A heap-allocated finding like a check makes: one call on `rank` of
 * MPI_Send from send_it (FILE:LINE) <- main <- libc, freed by mc_finding_clear. */
static inline mc_finding make(mc_class cls, mc_severity sev, const char *msg, int rank,
                       const char *file, int line)
{
    mc_finding f = {cls, sev, xstrdup(msg), malloc(sizeof(int)), 1,
                    calloc(1, sizeof(mc_call_text)), 1};
    mc_call_text *c = f.calls;
    f.ranks[0] = rank;
    c->rank = rank;
    c->call = xstrdup("MPI_Send");
    c->nargs = 2;
    c->args = calloc(2, sizeof *c->args);
    c->args[0] = (mc_arg_text){xstrdup("count"), xstrdup("-1")};
    c->args[1] = (mc_arg_text){xstrdup("buf"), xstrdup("0x1")};
    c->nframes = 3;
    c->stack = calloc(3, sizeof *c->stack);
    c->stack[0] = frame("send_it", file, line, "/usr/bin/prog", 0x401234);
    c->stack[1] = frame("main", file, 30, "/usr/bin/prog", 0x401300);
    c->stack[2] = frame("__libc_start_main", NULL, 0, "/lib/libc.so.6", 0x7f0000001000);
    return f;
}

static char dir[64];

static inline void setup(void)
{
    strcpy(dir, "/tmp/mc-report-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static inline void teardown(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

static inline FILE *open_part(const char *name, const char *mode)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *fp = fopen(p, mode);
    ck_assert_ptr_nonnull(fp);
    return fp;
}

static inline void write_part(const char *name, const mc_finding *f)
{
    FILE *fp = open_part(name, "a");
    ck_assert_int_eq(mc_part_write_finding(fp, f), 0);
    fclose(fp);
}

static inline void write_raw(const char *name, const char *text)
{
    FILE *fp = open_part(name, "a");
    fputs(text, fp);
    fclose(fp);
}

static inline void write_job(const char *name, const char *flavor, int nprocs)
{
    char fl[32], ver[] = "4.1.4", mode[] = "strict";
    mc_job_info job = {fl, ver, nprocs, mode, 10.0};
    strcpy(fl, flavor);
    FILE *fp = open_part(name, "a");
    ck_assert_int_eq(mc_part_write_job(fp, &job), 0);
    fclose(fp);
}

/* Merges dir with stderr sent to a file; returns what was written there. */
static char *merge_capture(mc_report_doc *doc)
{
    char tmpl[] = "/tmp/mc-stderr-XXXXXX";
    int fd = mkstemp(tmpl), saved = dup(2);
    static char buf[4096];
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    dup2(fd, 2);
    ck_assert_int_eq(mc_report_merge_dir(dir, doc), 0);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(tmpl);
    return buf;
}

static inline json_t *load(const char *name)
{
    char p[512];
    json_error_t e;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    json_t *j = json_load_file(p, 0, &e);
    ck_assert_msg(j != NULL, "%s: %s", name, e.text);
    return j;
}


#endif
