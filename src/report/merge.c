/*
 * merge.c - reads the per-rank part files of a job and folds them into one
 * report (writers.h): job header from the first "job" line, findings in
 * first-seen order (files by rank number, lines in file order), identical
 * findings from several ranks or repeated calls folded into one.
 *
 * RATIONALE: a rank may die at any point (often of the very bug reported),
 * so every line stands alone and a bad line costs only itself.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "finding_json.h"
#include "skipped.h"

/* ---- folding: a hash index over doc->findings, so that N findings cost
 * O(N) even when a loop in a 1000-rank job reports thousands of them. ---- */

typedef struct mc_merger {
    mc_report_doc *doc;
    size_t cap_findings; /* allocated length of doc->findings */
    size_t *slots;       /* finding index + 1; 0 = empty */
    size_t nslots;       /* power of two */
    size_t last;         /* the finding the last line folded into or made */
} merger;

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The identity of a finding (writers.h): class, severity, message, and the
 * first call's name and top frame (file+line, or pc+module without file). */
static int same_finding(const mc_finding *a, const mc_finding *b)
{
    if (a->cls != b->cls || a->severity != b->severity ||
        !str_eq(a->message, b->message) || (a->ncalls == 0) != (b->ncalls == 0))
        return 0;
    if (a->ncalls == 0)
        return 1;
    const mc_call_text *x = &a->calls[0], *y = &b->calls[0];
    if (!str_eq(x->call, y->call) || (x->nframes == 0) != (y->nframes == 0))
        return 0;
    if (x->nframes == 0)
        return 1;
    const mc_frame *p = &x->stack[0], *q = &y->stack[0];
    if (p->file || q->file)
        return str_eq(p->file, q->file) && p->line == q->line;
    /* Without debug info: the address within the module's file, the same on
     * every rank (each process loads the program and its libraries at
     * other addresses, so pcs differ across ranks); without it, the
     * function within its module. */
    if (p->offset || q->offset)
        return p->offset == q->offset && str_eq(p->module, q->module);
    if (p->function || q->function)
        return str_eq(p->function, q->function) && str_eq(p->module, q->module);
    return p->pc == q->pc && str_eq(p->module, q->module);
}

/* FNV-1a over exactly the fields same_finding compares. */
static uint64_t mix(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t mix_str(uint64_t h, const char *s)
{
    return s ? mix(h, s, strlen(s) + 1) : mix(h, "", 0) * 31; /* NULL != "" */
}

static uint64_t finding_hash(const mc_finding *f)
{
    int v[2] = {(int)f->cls, (int)f->severity};
    uint64_t h = mix(0xcbf29ce484222325ULL, v, sizeof v);

    h = mix_str(h, f->message);
    if (f->ncalls == 0)
        return h;
    h = mix_str(h, f->calls[0].call);
    if (f->calls[0].nframes == 0)
        return h;
    const mc_frame *p = &f->calls[0].stack[0];
    if (p->file)
        return mix(mix_str(h, p->file), &p->line, sizeof p->line);
    if (p->offset)
        return mix_str(mix(h, &p->offset, sizeof p->offset), p->module);
    if (p->function)
        return mix_str(mix_str(h, p->function), p->module);
    return mix_str(mix(h, &p->pc, sizeof p->pc), p->module);
}

/* Slot of f in the index: the one holding an identical finding, or the
 * empty one where f belongs. */
static size_t *find_slot(merger *m, const mc_finding *f)
{
    size_t mask = m->nslots - 1, i = (size_t)finding_hash(f) & mask;
    while (m->slots[i] && !same_finding(&m->doc->findings[m->slots[i] - 1], f))
        i = (i + 1) & mask;
    return &m->slots[i];
}

/* Keeps the index at most half full. */
static int index_grow(merger *m)
{
    size_t need = m->doc->nfindings + 1, n = m->nslots ? m->nslots : 64;
    if (need * 2 <= m->nslots)
        return 0;
    while (need * 2 > n)
        n *= 2;
    size_t *slots = mc_calloc(n, sizeof *slots);
    if (slots == NULL)
        return -1;
    free(m->slots);
    m->slots = slots;
    m->nslots = n;
    for (size_t i = 0; i < m->doc->nfindings; i++)
        *find_slot(m, &m->doc->findings[i]) = i + 1;
    return 0;
}

/* Moves src's ranks (sorted union) and calls (appended) into dst and frees
 * the rest of src. */
static int fold_into(mc_finding *dst, mc_finding *src)
{
    int *r = mc_malloc((dst->nranks + src->nranks + 1) * sizeof *r);
    mc_call_text *c = mc_realloc(dst->calls, (dst->ncalls + src->ncalls + 1) * sizeof *c);
    size_t i = 0, j = 0, n = 0;

    if (c)
        dst->calls = c;
    if (r == NULL || c == NULL) {
        free(r);
        return -1;
    }
    while (i < dst->nranks || j < src->nranks) {
        int x = (j == src->nranks || (i < dst->nranks && dst->ranks[i] <= src->ranks[j]))
                    ? dst->ranks[i++] : src->ranks[j++];
        if (n == 0 || r[n - 1] != x)
            r[n++] = x;
    }
    free(dst->ranks);
    dst->ranks = r;
    dst->nranks = n;
    if (src->ncalls)
        memcpy(dst->calls + dst->ncalls, src->calls, src->ncalls * sizeof *c);
    dst->ncalls += src->ncalls;
    free(src->calls); /* the calls' contents now belong to dst */
    src->calls = NULL;
    src->ncalls = 0;
    mc_finding_clear(src);
    return 0;
}

/* Takes f (folded, or appended as a new finding). */
static int add_finding(merger *m, mc_finding *f)
{
    if (index_grow(m))
        return -1;
    size_t *slot = find_slot(m, f);
    if (*slot) {
        m->last = *slot - 1;
        return fold_into(&m->doc->findings[*slot - 1], f);
    }
    mc_report_doc *doc = m->doc;
    if (doc->nfindings == m->cap_findings) {
        size_t cap = m->cap_findings ? m->cap_findings * 2 : 16;
        mc_finding *nf = mc_realloc(doc->findings, cap * sizeof *nf);
        if (nf == NULL)
            return -1;
        doc->findings = nf;
        m->cap_findings = cap;
    }
    doc->findings[doc->nfindings] = *f;
    m->last = doc->nfindings;
    *slot = ++doc->nfindings;
    return 0;
}

/* ---- reading ---- */

/* A "done" line's "skipped" list ([{"check", "count", "what"}]) added to the
 * job's totals. 0, -1 for a list of the wrong shape, -2 out of memory. */
static int add_skipped(mc_report_doc *doc, const json_t *list)
{
    if (list == NULL || json_is_null(list))
        return 0;
    if (!json_is_array(list))
        return -1;
    size_t i;
    const json_t *e;
    json_array_foreach(list, i, e) {
        const char *check = json_string_value(json_object_get(e, "check"));
        const char *what = NULL;    /* known checks only: a newer version's have no text here */
        for (int r = 0; check && r < MC_SKIP_COUNT_; r++)
            if (strcmp(check, mc_skipped_name((mc_skip_reason)r)) == 0)
                what = mc_skipped_what((mc_skip_reason)r);
        const json_t *n = json_object_get(e, "count");
        if (!check || !json_is_integer(n) || json_integer_value(n) < 0)
            return -1;
        size_t k = 0;
        while (k < doc->nskipped && strcmp(doc->skipped[k].check, check) != 0)
            k++;
        if (k == doc->nskipped) {
            mc_skip_total *grown = mc_realloc(doc->skipped, (k + 1) * sizeof *grown);
            if (!grown)
                return -2;
            doc->skipped = grown;
            grown[k].check = mc_strdup(check);
            grown[k].what = what ? mc_strdup(what) : NULL;
            grown[k].count = 0;
            if (!grown[k].check)
                return -2;
            doc->nskipped++;
        }
        doc->skipped[k].count += (long)json_integer_value(n);
    }
    return 0;
}

/* A "process" line: where the process ran. */
static int add_process(mc_report_doc *doc, const json_t *o)
{
    const json_t *rank = json_object_get(o, "rank"), *host = json_object_get(o, "host");
    const char *job = json_string_value(json_object_get(o, "job"));
    if (!json_is_integer(rank) || !json_is_string(host))
        return -1;
    if ((doc->nhosts & (doc->nhosts - 1)) == 0) {   /* 0, 1, 2, 4, ...: full */
        mc_process_host *grown = mc_realloc(doc->hosts, (doc->nhosts ? 2 * doc->nhosts : 1) * sizeof *grown);
        if (!grown)
            return -2;
        doc->hosts = grown;
    }
    mc_process_host *h = &doc->hosts[doc->nhosts++];
    memset(h, 0, sizeof *h);
    h->rank = (int)json_integer_value(rank);
    const json_t *pid = json_object_get(o, "pid"), *node = json_object_get(o, "node_id"),
                 *local = json_object_get(o, "local_rank");
    const char *layout = json_string_value(json_object_get(o, "layout"));
    h->pid = json_is_integer(pid) ? (long)json_integer_value(pid) : -1;
    h->node_id = json_is_integer(node) ? (int)json_integer_value(node) : -1;
    h->local_rank = json_is_integer(local) ? (int)json_integer_value(local) : -1;
    snprintf(h->source, sizeof h->source, "%s", layout ? layout : "");
    snprintf(h->job, sizeof h->job, "%s", job ? job : "");
    snprintf(h->host, sizeof h->host, "%s", json_string_value(host));
    if (doc->host_names == 0)
        doc->host_names = 1;
    else if (doc->host_names == 1 && strcmp(doc->hosts[0].host, h->host) != 0)
        doc->host_names = 2;
    return 0;
}

static const char *host_of(const mc_report_doc *doc, const mc_call_text *c)
{
    /* Processes of the first job are usually in rank order. */
    if (c->rank >= 0 && (size_t)c->rank < doc->nhosts && doc->hosts[c->rank].rank == c->rank
        && strcmp(doc->hosts[c->rank].job, c->job) == 0)
        return doc->hosts[c->rank].host;
    for (size_t i = 0; i < doc->nhosts; i++)
        if (doc->hosts[i].rank == c->rank && strcmp(doc->hosts[i].job, c->job) == 0)
            return doc->hosts[i].host;
    return NULL;
}

void mc_report_finding_name_hosts(const mc_report_doc *doc, mc_finding *f)
{
    if (doc->host_names < 2)
        return;
    for (size_t k = 0; k < f->ncalls; k++) {
        mc_call_text *c = &f->calls[k];
        const char *h = c->host[0] || c->rank < 0 ? NULL : host_of(doc, c);
        if (h)
            snprintf(c->host, sizeof c->host, "%s", h);
    }
}

void mc_report_doc_name_hosts(mc_report_doc *doc)
{
    for (size_t i = 0; i < doc->nfindings; i++)
        mc_report_finding_name_hosts(doc, &doc->findings[i]);
}

/* Returns 0, -1 for a malformed line, -2 when out of memory. */
static int merge_line(merger *m, const char *line, size_t len)
{
    json_t *o = json_loadb(line, len, 0, NULL);
    const char *kind = json_string_value(json_object_get(o, "kind"));
    int rc = -1;

    if (kind == NULL) {
        /* not an object, or no "kind": malformed */
    } else if (strcmp(kind, "finding") == 0) {
        mc_finding f;
        if (mc_finding_from_json(o, &f) == 0)
            rc = add_finding(m, &f) ? (mc_finding_clear(&f), -2) : 0;
    } else if (strcmp(kind, "process") == 0) {
        rc = add_process(m->doc, o);
    } else if (strcmp(kind, "done") == 0) {
        m->doc->ndone++;
        rc = add_skipped(m->doc, json_object_get(o, "skipped"));
        const json_t *rep = json_object_get(o, "repeats");
        if (rc == 0 && rep != NULL) {
            if (json_is_integer(rep) && json_integer_value(rep) >= 0)
                m->doc->repeats += (long)json_integer_value(rep);
            else
                rc = -1;
        }
    } else if (strcmp(kind, "job") == 0) {
        mc_job_info job;
        if (mc_job_from_json(o, &job) == 0) {
            rc = 0;
            if (m->doc->saw_job_line) { /* the first one wins */
                free(job.mpi_flavor);
                free(job.mpi_version);
                free(job.mode);
            } else {
                m->doc->job = job;
                m->doc->saw_job_line = 1;
            }
        }
    } else {
        rc = 0; /* a kind from a newer version: ignored (writers.h) */
    }
    json_decref(o);
    return rc;
}

static int merge_file(merger *m, const char *path)
{
    FILE *fp = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    int rc = 0;

    if (fp == NULL) {
        fprintf(stderr, "mpicheck: cannot read %s: %s\n", path, strerror(errno));
        return 0; /* the other ranks' parts are still worth reading */
    }
    m->doc->nparts++;
    while (rc == 0 && (len = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        size_t blank = 0;
        while (blank < (size_t)len && isspace((unsigned char)line[blank]))
            blank++;
        if (blank == (size_t)len)
            continue;
        /* A last line without '\n' is parsed too: the writer's flush may have
         * been cut just before the newline. If it is really cut short it
         * fails to parse and is reported like any other bad line. */
        int r = merge_line(m, line, (size_t)len);
        if (r == -1)
            fprintf(stderr, "mpicheck: skipping malformed line %zu of %s\n", lineno, path);
        else if (r == -2)
            rc = -1;
    }
    if (rc == 0 && ferror(fp))
        fprintf(stderr, "mpicheck: error reading %s: %s\n", path, strerror(errno));
    free(line);
    fclose(fp);
    return rc;
}

typedef struct {
    long rank;
    char *name;
} part_name;

/* Sort key of a part file name: its rank for "rank-<N>.jsonl" and for
 * "rank-<N>.<tag>.jsonl" (processes started by MPI_Comm_spawn, whose world
 * ranks repeat their parents'); LONG_MAX for
 * other "rank-*.jsonl" names, such as the "rank-pid<PID>.jsonl" a process
 * writes before MPI_Init tells it its rank (those sort last, by name);
 * -1 for names that are not parts at all. */
static long part_rank(const char *name)
{
    size_t n = strlen(name);
    char *end;

    if (n <= strlen("rank-.jsonl") || strncmp(name, "rank-", 5) != 0 ||
        strcmp(name + n - 6, ".jsonl") != 0)
        return -1;
    if (!isdigit((unsigned char)name[5]))
        return LONG_MAX;
    errno = 0;
    long r = strtol(name + 5, &end, 10);
    if (errno || r > INT_MAX || *end != '.')
        return LONG_MAX;
    return r;
}

static int cmp_part(const void *a, const void *b)
{
    const part_name *x = a, *y = b;
    if (x->rank != y->rank)
        return (x->rank > y->rank) - (x->rank < y->rank);
    return strcmp(x->name, y->name); /* "rank-1" vs "rank-01": any fixed order */
}

/* The sorted part file names of dir, or -1 (errno set). */
static int list_parts(const char *dir, part_name **out, size_t *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t cap = 0;

    *out = NULL;
    *n = 0;
    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL) {
        long r = part_rank(e->d_name);
        if (r < 0)
            continue;
        if (*n == cap) {
            part_name *p = mc_realloc(*out, (cap = cap ? cap * 2 : 16) * sizeof *p);
            if (p == NULL)
                goto nomem;
            *out = p;
        }
        if (((*out)[*n].name = mc_strdup(e->d_name)) == NULL)
            goto nomem;
        (*out)[(*n)++].rank = r;
    }
    closedir(d);
    if (*n)
        qsort(*out, *n, sizeof **out, cmp_part);
    return 0;
nomem:
    closedir(d);
    while (*n)
        free((*out)[--*n].name);
    free(*out);
    *out = NULL;
    errno = ENOMEM;
    return -1;
}

mc_merger *mc_merger_new(mc_report_doc *doc)
{
    merger *m = mc_calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->doc = doc;
    m->cap_findings = doc->nfindings;
    if (index_grow(m)) {
        free(m);
        return NULL;
    }
    return m;
}

int mc_merger_line(mc_merger *m, const char *line, size_t len, size_t *found)
{
    m->last = (size_t)-1;
    int rc = merge_line(m, line, len);
    *found = m->last;
    return rc;
}

void mc_merger_free(mc_merger *m)
{
    if (m)
        free(m->slots);
    free(m);
}

int mc_report_merge_dir(const char *dir, mc_report_doc *doc)
{
    merger m = {doc, doc->nfindings, NULL, 0, 0};
    part_name *parts;
    size_t nparts;
    int rc = 0;

    if (dir == NULL || doc == NULL) {
        errno = EINVAL;
        return -1;
    }
    if (list_parts(dir, &parts, &nparts))
        return -1;
    /* Findings already in doc take part in folding too. */
    if (index_grow(&m))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < nparts; i++) {
        size_t len = strlen(dir) + strlen(parts[i].name) + 2;
        char *path = mc_malloc(len);
        if (path == NULL) {
            rc = -1;
            break;
        }
        snprintf(path, len, "%s/%s", dir, parts[i].name);
        rc = merge_file(&m, path);
        free(path);
    }
    for (size_t i = 0; i < nparts; i++)
        free(parts[i].name);
    free(parts);
    free(m.slots);
    if (!doc->saw_job_line)
        doc->job.nprocs = -1; /* no rank reached MPI_Init */
    mc_report_doc_name_hosts(doc);
    if (rc)
        errno = ENOMEM;
    return rc;
}

void mc_report_count(const mc_report_doc *doc, int *errors, int *warnings)
{
    int e = 0, w = 0;
    for (size_t i = 0; doc && i < doc->nfindings; i++) {
        if (doc->findings[i].suppressed)
            continue;
        if (doc->findings[i].severity == MC_SEV_ERROR)
            e++;
        else
            w++;
    }
    if (errors)
        *errors = e;
    if (warnings)
        *warnings = w;
}

int mc_report_suppressed(const mc_report_doc *doc)
{
    int n = 0;
    for (size_t i = 0; doc && i < doc->nfindings; i++)
        n += doc->findings[i].suppressed != NULL;
    return n;
}

void mc_report_skipped_line(const mc_report_doc *doc, char *buf, size_t len)
{
    size_t used = 0;
    long total = 0;
    if (len == 0)
        return;
    buf[0] = 0;
    for (size_t i = 0; i < doc->nskipped; i++)
        total += doc->skipped[i].count;
    if (total == 0)
        return;
    used = (size_t)snprintf(buf, len, "mpicheck: not checked:");
    for (size_t i = 0; i < doc->nskipped && used < len; i++)
        if (doc->skipped[i].count > 0)
            used += (size_t)snprintf(buf + used, len - used, "%s %ld %s (%s)", i ? ";" : "",
                                     doc->skipped[i].count, doc->skipped[i].check,
                                     doc->skipped[i].what ? doc->skipped[i].what : "");
}

void mc_report_doc_clear(mc_report_doc *doc)
{
    if (doc == NULL)
        return;
    free(doc->job.mpi_flavor);
    free(doc->job.mpi_version);
    free(doc->job.mode);
    for (size_t i = 0; i < doc->nfindings; i++)
        mc_finding_clear(&doc->findings[i]);
    free(doc->findings);
    for (size_t i = 0; i < doc->nskipped; i++) {
        free(doc->skipped[i].check);
        free(doc->skipped[i].what);
    }
    free(doc->skipped);
    free(doc->hosts);
    memset(doc, 0, sizeof *doc);
}
