/*
 * part.c - the finding and job-header <-> jansson conversion (the single
 * definition of their JSON shape, see docs/report-format.md) and the
 * per-rank part-file writers.
 *
 * RATIONALE: parts are JSON Lines written with one flush per line so that a
 * rank killed at any moment leaves at most one truncated line, which the
 * merger skips; everything before it survives.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "finding_json.h"
#include "skipped.h"

/* ---- UTF-8: JSON strings must be valid UTF-8, but file names, function
 * names and messages from a C program need not be. ---- */

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF), or 0 when it is not one. */
static size_t utf8_seq(const unsigned char *s)
{
    unsigned c = s[0], cp, min;
    size_t n;

    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* malloc'd copy of s with each invalid byte replaced by U+FFFD. */
static char *utf8_clean(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char *out = mc_malloc(strlen(s) * 3 + 1), *o = out;

    if (out == NULL)
        return NULL;
    while (*p) {
        size_t n = utf8_seq(p);
        if (n == 0) {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3, p++;
        } else {
            memcpy(o, p, n);
            o += n, p += n;
        }
    }
    *o = '\0';
    return out;
}

json_t *mc_json_str(const char *s)
{
    if (s == NULL)
        return json_null();
    json_t *j = json_string(s); /* NULL when s is not valid UTF-8 */
    if (j == NULL) {
        char *c = utf8_clean(s);
        j = c ? json_string(c) : NULL;
        free(c);
    }
    return j;
}

/* ---- writing ---- */

/* json_pack's "o" takes the reference even when packing fails (jansson >=
 * 2.11), and a NULL "o" (out of memory below) makes the pack fail: so no
 * error path here needs to free anything. */

static json_t *frame_to_json(const mc_frame *fr)
{
    char pc[2 + 2 * sizeof(uintptr_t) + 1], off[2 + 2 * sizeof(uintptr_t) + 1];
    snprintf(pc, sizeof pc, "0x%" PRIxPTR, fr->pc);
    snprintf(off, sizeof off, "0x%" PRIxPTR, fr->offset);
    return json_pack("{s:o, s:o, s:i, s:o, s:s, s:o}", "function", mc_json_str(fr->function),
                     "file", mc_json_str(fr->file), "line", fr->line > 0 ? fr->line : 0,
                     "module", mc_json_str(fr->module), "pc", pc,
                     "offset", fr->offset ? json_string(off) : json_null());
}

static json_t *call_to_json(const mc_call_text *c)
{
    json_t *args = json_object(), *stack = json_array();

    for (size_t i = 0; args && c->args && i < c->nargs; i++) {
        if (c->args[i].name == NULL) /* a nameless argument cannot be a key */
            continue;
        char *key = utf8_clean(c->args[i].name); /* keys must be UTF-8 too */
        if (!key || json_object_set_new(args, key, mc_json_str(c->args[i].value))) {
            json_decref(args);
            args = NULL;
        }
        free(key);
    }
    for (size_t i = 0; stack && c->stack && i < c->nframes; i++)
        if (json_array_append_new(stack, frame_to_json(&c->stack[i]))) {
            json_decref(stack);
            stack = NULL;
        }
    json_t *o = json_pack("{s:i, s:o, s:o, s:o}", "rank", c->rank, "call", mc_json_str(c->call),
                          "args", args, "stack", stack);
    if (o && c->job[0] && json_object_set_new(o, "job", json_string(c->job))) {
        json_decref(o);
        o = NULL;
    }
    if (o && c->host[0] && json_object_set_new(o, "host", mc_json_str(c->host))) {
        json_decref(o);
        o = NULL;
    }
    if (o && c->tid > 0
        && json_object_set_new(o, "thread", json_pack("{s:i, s:o}", "id", c->tid, "name",
                                                        mc_json_str(c->thread_name[0] ? c->thread_name : NULL)))) {
        json_decref(o);
        o = NULL;
    }
    return o;
}

int mc_finding_json_fill(json_t *obj, const mc_finding *f)
{
    json_t *ranks = json_array(), *calls = json_array(), *members;
    int rc;

    for (size_t i = 0; ranks && f->ranks && i < f->nranks; i++)
        if (json_array_append_new(ranks, json_integer(f->ranks[i]))) {
            json_decref(ranks);
            ranks = NULL;
        }
    for (size_t i = 0; calls && f->calls && i < f->ncalls; i++)
        if (json_array_append_new(calls, call_to_json(&f->calls[i]))) {
            json_decref(calls);
            calls = NULL;
        }
    members = json_pack("{s:o, s:o, s:o, s:o, s:o}",
                        "class", mc_json_str(mc_class_name(f->cls)),
                        "severity", mc_json_str(mc_severity_name(f->severity)),
                        "message", mc_json_str(f->message ? f->message : ""),
                        "ranks", ranks, "calls", calls);
    if (members && f->cause && json_object_set_new(members, "cause", mc_json_str(f->cause))) {
        json_decref(members);
        members = NULL;
    }
    if (members && f->suppressed &&
        (json_object_set_new(members, "suppressed", json_true()) ||
         json_object_set_new(members, "suppression", mc_json_str(f->suppressed)))) {
        json_decref(members);
        members = NULL;
    }
    /* update appends in members' (insertion) order */
    rc = members ? json_object_update(obj, members) : -1;
    json_decref(members);
    return rc;
}

json_t *mc_finding_to_json(const mc_finding *f)
{
    json_t *o = json_object();
    if (o && mc_finding_json_fill(o, f) == 0)
        return o;
    json_decref(o);
    return NULL;
}

int mc_job_json_fill(json_t *obj, const mc_job_info *job)
{
    /* A zero-initialised header must not claim "0 processes, no timeout". */
    int known_t = isfinite(job->timeout_s) && job->timeout_s > 0;
    json_t *members = json_pack(
        "{s:{s:o, s:o}, s:o, s:o, s:o}",
        "mpi", "flavor", mc_json_str(job->mpi_flavor), "version", mc_json_str(job->mpi_version),
        "nprocs", job->nprocs > 0 ? json_integer(job->nprocs) : json_null(),
        "mode", mc_json_str(job->mode),
        "timeout_s", known_t ? json_real(job->timeout_s) : json_null());
    int rc = members ? json_object_update(obj, members) : -1;
    json_decref(members);
    return rc;
}

/* Writes obj (consumed; NULL means out of memory) as one line and flushes:
 * the line must be in the kernel before the rank can die of the bug being
 * reported. */
static int write_line(FILE *part, json_t *obj)
{
    char *s = obj ? json_dumps(obj, JSON_COMPACT | MC_JSON_FLAGS) : NULL;
    int rc = 0;

    json_decref(obj);
    if (s == NULL) {
        errno = ENOMEM;
        return -1;
    }
    flockfile(part); /* threads of one rank must not interleave lines */
    if (fputs(s, part) == EOF || fputc('\n', part) == EOF || fflush(part) == EOF)
        rc = -1;
    funlockfile(part);
    free(s);
    return rc;
}

/* {"kind": kind} (first member, so a reader sees it first), NULL when out
 * of memory. */
static json_t *kind_object(const char *kind)
{
    json_t *o = json_object();
    if (o && json_object_set_new(o, "kind", json_string(kind))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int mc_part_write_finding(FILE *part, const mc_finding *f)
{
    if (part == NULL || f == NULL) {
        errno = EINVAL;
        return -1;
    }
    json_t *o = kind_object("finding");
    if (o && mc_finding_json_fill(o, f)) {
        json_decref(o);
        o = NULL;
    }
    return write_line(part, o);
}

int mc_part_write_done(FILE *part, unsigned long repeats)
{
    if (part == NULL) {
        errno = EINVAL;
        return -1;
    }
    json_t *o = kind_object("done"), *list = json_array();
    int bad = o == NULL || list == NULL;
    for (int r = 0; !bad && r < MC_SKIP_COUNT_; r++) {
        long n = mc_skipped_count((mc_skip_reason)r);
        if (n == 0)
            continue;
        json_t *e = json_object();
        bad = e == NULL || json_object_set_new(e, "check", json_string(mc_skipped_name((mc_skip_reason)r)))
              || json_object_set_new(e, "count", json_integer(n))
              || json_array_append_new(list, e);
    }
    if (!bad && json_array_size(list) > 0)
        bad = json_object_set(o, "skipped", list);
    /* Findings made again at the same check and call site, not written
     * again: the merged report says how many (after them, where a rank's
     * own line at MPI_Finalize came before the report). */
    if (!bad && repeats > 0)
        bad = json_object_set_new(o, "repeats", json_integer((json_int_t)repeats));
    json_decref(list);
    if (bad) {
        json_decref(o);
        o = NULL;
    }
    return write_line(part, o);
}

int mc_part_write_job(FILE *part, const mc_job_info *job)
{
    if (part == NULL || job == NULL) {
        errno = EINVAL;
        return -1;
    }
    json_t *o = kind_object("job");
    /* Only world rank 0 writes the job line (writers.h). */
    if (o && (json_object_set_new(o, "rank", json_integer(0)) || mc_job_json_fill(o, job))) {
        json_decref(o);
        o = NULL;
    }
    return write_line(part, o);
}

static json_t *int_or_null(int v)
{
    return v >= 0 ? json_integer(v) : json_null();
}

json_t *mc_process_to_json(const mc_process_host *h)
{
    json_t *o = json_pack("{s:i, s:o, s:I, s:o, s:o, s:o}", "rank", h->rank, "host", mc_json_str(h->host),
                          "pid", (json_int_t)h->pid, "node_id", int_or_null(h->node_id),
                          "local_rank", int_or_null(h->local_rank), "layout", mc_json_str(h->source));
    if (o && h->job[0] && json_object_set_new(o, "job", mc_json_str(h->job))) {
        json_decref(o);
        o = NULL;
    }
    return o;
}

int mc_part_write_process(FILE *part, const mc_process_host *h)
{
    if (part == NULL || h == NULL) {
        errno = EINVAL;
        return -1;
    }
    json_t *o = kind_object("process"), *members = mc_process_to_json(h);
    if (o && (!members || json_object_update(o, members))) {
        json_decref(o);
        o = NULL;
    }
    json_decref(members);
    if (o && !h->job[0] && json_object_set_new(o, "job", json_string(""))) {
        json_decref(o);
        o = NULL;
    }
    return write_line(part, o);
}

/* ---- reading (strict about types: a line of the wrong shape is malformed,
 * but members that are missing or null take their "unknown" value) ---- */

static int get_str(const json_t *obj, const char *key, char **out)
{
    const json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (v == NULL || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return -1;
    *out = mc_strdup(json_string_value(v));
    return *out ? 0 : -1;
}

static int get_int(const json_t *obj, const char *key, int dflt, int *out)
{
    const json_t *v = json_object_get(obj, key);
    *out = dflt;
    if (v == NULL || json_is_null(v))
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < INT_MIN ||
        json_integer_value(v) > INT_MAX)
        return -1;
    *out = (int)json_integer_value(v);
    return 0;
}

/* An array member: *out is NULL when missing or null. */
static int get_array(const json_t *obj, const char *key, const json_t **out)
{
    const json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (v == NULL || json_is_null(v))
        return 0;
    if (!json_is_array(v))
        return -1;
    *out = v;
    return 0;
}

static int get_pc(const json_t *v, uintptr_t *pc)
{
    *pc = 0;
    if (v == NULL || json_is_null(v))
        return 0;
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *pc = (uintptr_t)json_integer_value(v);
        return 0;
    }
    const char *s = json_string_value(v); /* NULL when not a string */
    /* strtoumax alone would also take blanks and a sign after "0x" */
    if (s == NULL || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') ||
        !isxdigit((unsigned char)s[2]))
        return -1;
    char *end;
    errno = 0;
    uintmax_t x = strtoumax(s + 2, &end, 16);
    if (*end != '\0' || errno || x > UINTPTR_MAX)
        return -1;
    *pc = (uintptr_t)x;
    return 0;
}

static int frame_from_json(const json_t *o, mc_frame *fr)
{
    if (!json_is_object(o))
        return -1;
    if (get_str(o, "function", &fr->function) || get_str(o, "file", &fr->file) ||
        get_str(o, "module", &fr->module) || get_int(o, "line", 0, &fr->line) ||
        get_pc(json_object_get(o, "pc"), &fr->pc) || get_pc(json_object_get(o, "offset"), &fr->offset))
        return -1;
    return 0;
}

static int call_from_json(const json_t *o, mc_call_text *c)
{
    const json_t *args, *stack, *v;
    const char *key;
    size_t i;

    if (!json_is_object(o) || get_int(o, "rank", -1, &c->rank) ||
        get_str(o, "call", &c->call) || get_array(o, "stack", &stack))
        return -1;
    const json_t *job = json_object_get(o, "job");
    if (json_is_string(job))
        snprintf(c->job, sizeof c->job, "%s", json_string_value(job));
    const json_t *host = json_object_get(o, "host");
    if (json_is_string(host))
        snprintf(c->host, sizeof c->host, "%s", json_string_value(host));
    const json_t *thread = json_object_get(o, "thread");
    if (json_is_object(thread)) {
        json_int_t id = json_integer_value(json_object_get(thread, "id"));
        const char *name = json_string_value(json_object_get(thread, "name"));
        c->tid = id > 0 && id < 1 << 30 ? (int)id : 0;
        snprintf(c->thread_name, sizeof c->thread_name, "%s", name ? name : "");
    }
    args = json_object_get(o, "args");
    if (args && !json_is_null(args)) {
        if (!json_is_object(args))
            return -1;
        c->nargs = json_object_size(args);
        if (c->nargs && !(c->args = mc_calloc(c->nargs, sizeof *c->args)))
            return -1;
        i = 0;
        json_object_foreach((json_t *)args, key, v) { /* insertion order */
            if (!json_is_string(v) && !json_is_null(v))
                return -1;
            if (!(c->args[i].name = mc_strdup(key)) ||
                (json_is_string(v) && !(c->args[i].value = mc_strdup(json_string_value(v)))))
                return -1;
            i++;
        }
    }
    c->nframes = stack ? json_array_size(stack) : 0;
    if (c->nframes && !(c->stack = mc_calloc(c->nframes, sizeof *c->stack)))
        return -1;
    json_array_foreach(stack, i, v)
        if (frame_from_json(v, &c->stack[i]))
            return -1;
    return 0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int finding_from_json(const json_t *obj, mc_finding *out)
{
    const json_t *ranks, *calls, *v;
    const char *cls = json_string_value(json_object_get(obj, "class"));
    const char *sev = json_string_value(json_object_get(obj, "severity"));
    size_t i;

    if (!json_is_object(obj) || mc_class_from_name(cls) < 0 || sev == NULL)
        return -1;
    out->cls = (mc_class)mc_class_from_name(cls);
    if (strcmp(sev, "error") == 0)
        out->severity = MC_SEV_ERROR;
    else if (strcmp(sev, "warning") == 0)
        out->severity = MC_SEV_WARNING;
    else
        return -1;
    if (!json_is_string(json_object_get(obj, "message")) ||
        get_str(obj, "message", &out->message) ||
        get_array(obj, "ranks", &ranks) || get_array(obj, "calls", &calls))
        return -1;
    const json_t *supp = json_object_get(obj, "suppression");
    if (json_is_true(json_object_get(obj, "suppressed")) &&
        !(out->suppressed = mc_strdup(json_is_string(supp) ? json_string_value(supp) : "?")))
        return -1;
    const json_t *cause = json_object_get(obj, "cause");
    if (json_is_string(cause) && !(out->cause = mc_strdup(json_string_value(cause))))
        return -1;
    out->nranks = ranks ? json_array_size(ranks) : 0;
    if (out->nranks && !(out->ranks = mc_calloc(out->nranks, sizeof *out->ranks)))
        return -1;
    json_array_foreach(ranks, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < INT_MIN ||
            json_integer_value(v) > INT_MAX)
            return -1;
        out->ranks[i] = (int)json_integer_value(v);
    }
    /* ranks[] is documented ascending and unique; enforce it on input. */
    if (out->nranks > 1) {
        size_t n = 1;
        qsort(out->ranks, out->nranks, sizeof *out->ranks, cmp_int);
        for (i = 1; i < out->nranks; i++)
            if (out->ranks[i] != out->ranks[n - 1])
                out->ranks[n++] = out->ranks[i];
        out->nranks = n;
    }
    out->ncalls = calls ? json_array_size(calls) : 0;
    if (out->ncalls && !(out->calls = mc_calloc(out->ncalls, sizeof *out->calls)))
        return -1;
    json_array_foreach(calls, i, v)
        if (call_from_json(v, &out->calls[i]))
            return -1;
    return 0;
}

int mc_finding_from_json(const json_t *obj, mc_finding *out)
{
    memset(out, 0, sizeof *out);
    if (finding_from_json(obj, out) == 0)
        return 0;
    mc_finding_clear(out);
    return -1;
}

int mc_job_from_json(const json_t *obj, mc_job_info *out)
{
    const json_t *mpi = json_object_get(obj, "mpi");
    const json_t *t = json_object_get(obj, "timeout_s");

    memset(out, 0, sizeof *out);
    out->nprocs = -1;
    if (!json_is_object(obj) || (mpi && !json_is_null(mpi) && !json_is_object(mpi)) ||
        (t && !json_is_null(t) && !json_is_number(t)))
        goto fail;
    if ((json_is_object(mpi) && (get_str(mpi, "flavor", &out->mpi_flavor) ||
                                 get_str(mpi, "version", &out->mpi_version))) ||
        get_int(obj, "nprocs", -1, &out->nprocs) || get_str(obj, "mode", &out->mode))
        goto fail;
    out->timeout_s = json_is_number(t) ? json_number_value(t) : 0.0;
    return 0;
fail:
    free(out->mpi_flavor);
    free(out->mpi_version);
    free(out->mode);
    memset(out, 0, sizeof *out);
    out->nprocs = -1;
    return -1;
}

int mc_part_line_finding(const char *line, size_t len, mc_finding *out)
{
    json_t *o = json_loadb(line, len, 0, NULL);
    const char *kind = json_string_value(json_object_get(o, "kind"));
    int rc = kind && strcmp(kind, "finding") == 0 && mc_finding_from_json(o, out) == 0;
    json_decref(o);
    return rc;
}
