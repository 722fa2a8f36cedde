/*
 * sarif.c - SARIF 2.1.0 log of a merged report, for code-scanning UIs
 * (GitHub, VS Code SARIF viewer). Mapping documented in
 * docs/report-format.md: one rule per class, one result per finding, the
 * first call's source location as the result's location, the other calls as
 * related locations.
 */
#define _XOPEN_SOURCE 700     /* realpath */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "finding_json.h"
#include "skipped.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define INFO_URI "https://github.com/mpicheck/mpicheck"


/* An absolute path without "." and ".." segments: the file itself where it
 * exists here (symbolic links resolved, as the SARIF rule SARIF1002 asks:
 * ".." after a link means another place), else the segments folded as
 * text. A library built with a relative configure path (../../configure)
 * records its sources as "/x/build/../../src/a.c" in the debug
 * information; a program's may be anything. */
static char *absolute_clean(const char *path)
{
    char *real = realpath(path, NULL);
    if (real)
        return real;
    char *out = mc_malloc(strlen(path) + 2);
    if (!out)
        return NULL;
    size_t n = 0;
    for (const char *s = path; *s;) {
        while (*s == '/')
            s++;
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 0 || (len == 1 && s[0] == '.')) {
            /* nothing */
        } else if (len == 2 && s[0] == '.' && s[1] == '.') {
            while (n > 0 && out[--n] != '/')
                ;
        } else {
            out[n++] = '/';
            memcpy(out + n, s, len);
            n += len;
        }
        s += len;
    }
    if (n == 0)
        out[n++] = '/';
    out[n] = '\0';
    return out;
}

/* SARIF wants a URI reference: relative paths stay relative (a viewer
 * resolves them against its source root), absolute ones become file:// URIs.
 * Everything but unreserved characters and '/' is percent-encoded, so spaces,
 * '%', '#' and non-ASCII bytes (as UTF-8 octets, RFC 3986) survive. */
static char *path_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    char *clean = NULL;
    if (path[0] == '/' && (strstr(path, "/./") || strstr(path, "/../"))) {
        if (!(clean = absolute_clean(path)))
            return NULL;
        path = clean;
    }
    /* A file below the working directory (a CI job runs from the checkout's
     * root) becomes relative, so code-scanning dashboards can place it. */
    char cwd[4096];
    if (path[0] == '/' && getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd);
        if (n > 1 && strncmp(path, cwd, n) == 0 && path[n] == '/')
            path += n + 1;
    }
    const char *scheme = path[0] == '/' ? "file://" : "";
    char *out = mc_malloc(strlen(scheme) + strlen(path) * 3 + 1), *o;

    if (out == NULL) {
        free(clean);
        return NULL;
    }
    o = out + strlen(strcpy(out, scheme));
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
            (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
            *o++ = (char)*p;
        } else {
            *o++ = '%';
            *o++ = hex[*p >> 4];
            *o++ = hex[*p & 15];
        }
    }
    *o = '\0';
    free(clean);
    return out;
}

static json_t *physical_location(const mc_frame *fr)
{
    char *uri = path_uri(fr->file);
    json_t *pl = uri ? json_pack("{s:{s:s}}", "artifactLocation", "uri", uri) : NULL;
    free(uri);
    /* startLine must be >= 1: an unknown line means no region at all */
    if (pl && fr->line > 0 &&
        json_object_set_new(pl, "region", json_pack("{s:i}", "startLine", fr->line))) {
        json_decref(pl);
        return NULL;
    }
    return pl;
}

/* message + " (rank 3)" / " (ranks 0, 1)" / " (ranks 0-63, 70)": runs of
 * three or more ranks are shortened so a 1000-rank finding stays readable.
 * A negative rank (unknown: reported before MPI_Init) shows as "?". */
static char *result_text(const mc_finding *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);

    if (m == NULL)
        return NULL;
    fputs(f->message ? f->message : "", m);
    if (f->ranks && f->nranks)
        fprintf(m, " (%s ", f->nranks == 1 ? "rank" : "ranks");
    for (size_t i = 0; f->ranks && i < f->nranks;) {
        size_t j = i;
        while (f->ranks[i] >= 0 && j + 1 < f->nranks && f->ranks[j + 1] == f->ranks[j] + 1)
            j++;
        if (f->ranks[i] < 0)
            fprintf(m, "%s?", i ? ", " : "");
        else
            fprintf(m, "%s%d", i ? ", " : "", f->ranks[i]);
        if (j >= i + 2)
            fprintf(m, "-%d", f->ranks[j]);
        else
            j = i;
        i = j + 1;
    }
    if (f->ranks && f->nranks)
        fputc(')', m);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static json_t *related_location(const mc_call_text *c, size_t id)
{
    char rank[16] = "?";
    const mc_frame *fr = mc_call_site(c);
    json_t *loc;

    if (c->rank >= 0)
        snprintf(rank, sizeof rank, "%d", c->rank);
    /* id keeps two calls at the same place distinct: SARIF requires
     * relatedLocations items to be unique. */
    loc = json_pack("{s:I}", "id", (json_int_t)id);
    if (loc && fr && json_object_set_new(loc, "physicalLocation", physical_location(fr)))
        goto fail;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m == NULL)
        goto fail;
    fprintf(m, "rank %s%s%s: %s", rank, c->host[0] ? " on " : "", c->host, c->call ? c->call : "?");
    if (fclose(m) != 0 ||
        json_object_set_new(loc, "message", json_pack("{s:o}", "text", mc_json_str(text)))) {
        free(text);
        goto fail;
    }
    free(text);
    return loc;
fail:
    json_decref(loc);
    return NULL;
}

static json_t *result(const mc_finding *f)
{
    const char *name = mc_class_name(f->cls);
    const mc_frame *fr = f->ncalls ? mc_call_site(&f->calls[0]) : NULL;
    char *text = result_text(f);
    json_t *res = NULL, *locs = NULL;

    if (name == NULL || text == NULL)
        goto fail;
    res = json_pack("{s:s, s:i, s:s, s:{s:o}}", "ruleId", name, "ruleIndex", (int)f->cls,
                    "level", mc_severity_name(f->severity) ? mc_severity_name(f->severity) : "error",
                    "message", "text", mc_json_str(text));
    /* SARIF 2.1.0 lets a result have no location (the schema default is
     * []); an explicit empty array keeps consumers that iterate it simple. */
    locs = json_array();
    if (res == NULL || locs == NULL ||
        (fr && json_array_append_new(locs, json_pack("{s:o}", "physicalLocation",
                                                       physical_location(fr)))))
        goto fail;
    if (json_object_set(res, "locations", locs))
        goto fail;
    /* A suppressed finding stays in the log, marked as SARIF says. */
    if (f->suppressed &&
        json_object_set_new(res, "suppressions",
                            json_pack("[{s:s, s:o}]", "kind", "external", "justification",
                                      mc_json_str(f->suppressed))))
        goto fail;
    if (f->ncalls > 1) {
        json_t *rel = json_array();
        if (json_object_set_new(res, "relatedLocations", rel))
            goto fail;
        for (size_t i = 1; i < f->ncalls; i++)
            if (json_array_append_new(rel, related_location(&f->calls[i], i)))
                goto fail;
    }
    json_decref(locs);
    free(text);
    return res;
fail:
    json_decref(locs);
    json_decref(res);
    free(text);
    return NULL;
}

static json_t *rules(void)
{
    json_t *arr = json_array();
    for (int c = 0; arr && c < MC_CLASS_COUNT_; c++) {
        /* Code-scanning dashboards show fullDescription and help next to
         * each result: the class's description and where the docs are. */
        char help[1024];
        snprintf(help, sizeof help, "%s See docs/checks.md in mpicheck's source, section \"%s\", "
                 "for what the check covers, examples and how to fix it.",
                 mc_class_description((mc_class)c), mc_class_name((mc_class)c));
        json_t *r = json_pack("{s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}}",
                              "id", mc_class_name((mc_class)c),
                              "shortDescription", "text", mc_class_description((mc_class)c),
                              "fullDescription", "text", mc_class_description((mc_class)c),
                              "help", "text", help,
                              "defaultConfiguration", "level",
                              mc_severity_name(mc_class_default_severity((mc_class)c)));
        if (json_array_append_new(arr, r)) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}

/* The checks not made (summary.skipped of the JSON report) as the run's
 * invocation's tool execution notifications: SARIF's place for what a tool
 * says about its own run, apart from the results. 0, or -1 out of memory. */
static int add_skipped(json_t *run, const mc_report_doc *doc)
{
    json_t *notes = json_array();
    json_t *inv = json_pack("[{s:b, s:o}]", "executionSuccessful", 1, "toolExecutionNotifications", notes);
    if (!inv || !run || json_object_set_new(run, "invocations", inv))
        return -1;
    for (size_t i = 0; i < doc->nskipped; i++) {
        char text[1024];
        snprintf(text, sizeof text, "Not checked: %ld %s%s%s%s.", doc->skipped[i].count,
                 doc->skipped[i].check, doc->skipped[i].what ? " (" : "",
                 doc->skipped[i].what ? doc->skipped[i].what : "", doc->skipped[i].what ? ")" : "");
        if (json_array_append_new(notes, json_pack("{s:s, s:{s:s}, s:{s:s}}", "level", "warning",
                                                   "message", "text", text,
                                                   "descriptor", "id", doc->skipped[i].check)))
            return -1;
    }
    return 0;
}

int mc_report_write_sarif(const char *path, const mc_report_doc *doc,
                          const char *tool_version)
{
    json_t *results = json_array(), *log = NULL;
    int rc = -1;

    if (doc == NULL) {
        json_decref(results);
        errno = EINVAL;
        return -1;
    }
    for (size_t i = 0; results && i < doc->nfindings; i++)
        if (json_array_append_new(results, result(&doc->findings[i])))
            goto out;
    /* "o" steals the references, also when packing fails. */
    /* s*: no "version" member when unknown (SARIF has no null version). */
    log = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s*, s:s, s:o}}, s:o}]}",
                    "$schema", SARIF_SCHEMA, "version", "2.1.0", "runs",
                    "tool", "driver", "name", "mpicheck",
                    "version", tool_version, "informationUri", INFO_URI,
                    "rules", rules(), "results", results);
    results = NULL;
    if (log && doc->nskipped > 0 && add_skipped(json_array_get(json_object_get(log, "runs"), 0), doc)) {
        json_decref(log);
        log = NULL;
    }
    if (log)
        rc = mc_json_write_path(path, log, JSON_INDENT(2) | MC_JSON_FLAGS);
out:
    if (rc && !log && errno != EINVAL)
        errno = ENOMEM;
    json_decref(results);
    json_decref(log);
    return rc;
}
