/*
 * html.c - the job report as one self-contained HTML page (--html=FILE):
 * a summary table by class and severity, then each finding with its ranks,
 * calls, arguments and stacks, the source lines around each call site, and
 * a deadlock's wait-for graph as inline SVG. No script, no style sheet or
 * font fetched from anywhere: the page opens the same from a CI artifact
 * on a laptop without network.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writers.h"

#define CONTEXT_LINES 3
#define MAX_FRAMES 16

/* Text with &, <, >, " escaped; control characters shown as '?'. */
static void esc(FILE *m, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", m); break;
        case '<': fputs("&lt;", m); break;
        case '>': fputs("&gt;", m); break;
        case '"': fputs("&quot;", m); break;
        default: fputc(c < 0x20 && c != '\n' && c != '\t' ? '?' : c, m);
        }
    }
}

static const char style[] =
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}"
    "h1{font-size:1.5em}h2{font-size:1.15em;margin:0 0 .4em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .6em;"
    "text-align:left;vertical-align:top}th{background:#f3f3f3}"
    ".finding{border:1px solid #ddd;border-left:6px solid #c00;padding:.8em 1em;margin:1em 0}"
    ".finding.warning{border-left-color:#d90}.finding.suppressed{opacity:.6;border-left-color:#999}"
    ".sev{font-weight:bold}.error .sev{color:#c00}.warning .sev{color:#b60}"
    "pre{background:#f7f7f7;padding:.5em;overflow-x:auto;margin:.3em 0}pre.message{white-space:pre-wrap}"
    ".src .hit{background:#fde2a0;display:block}.call{margin:.6em 0 .6em 1em}"
    ".args td:first-child{font-family:monospace}ol.stack{margin:.2em 0;font-family:monospace}"
    ".badge{background:#999;color:#fff;padding:0 .4em;border-radius:3px;font-size:.85em}"
    ".graph svg{max-width:100%;height:auto}";

static void put_source(FILE *m, const mc_frame *fr)
{
    if (!fr || !fr->file || fr->line <= 0)
        return;
    FILE *src = fopen(fr->file, "r");
    if (!src)
        return;
    char *line = NULL;
    size_t cap = 0;
    int n = 0, shown = 0;
    while (getline(&line, &cap, src) >= 0 && ++n <= fr->line + CONTEXT_LINES) {
        if (n < fr->line - CONTEXT_LINES)
            continue;
        if (!shown++)
            fputs("<pre class=\"src\">", m);
        line[strcspn(line, "\r\n")] = '\0';
        fprintf(m, "<span%s>%5d | ", n == fr->line ? " class=\"hit\"" : "", n);
        esc(m, line);
        fputs(n == fr->line ? "</span>" : "</span>\n", m);
    }
    if (shown)
        fputs("</pre>\n", m);
    free(line);
    fclose(src);
}

static void put_frame(FILE *m, const mc_frame *fr)
{
    fputs("<li>", m);
    esc(m, fr->function ? fr->function : "??");
    if (fr->file) {
        fputs(" (", m);
        esc(m, fr->file);
        if (fr->line > 0)
            fprintf(m, ":%d", fr->line);
        fputc(')', m);
    } else if (fr->module) {
        fputs(" (", m);
        esc(m, fr->module);
        if (fr->offset)
            fprintf(m, " +0x%" PRIxPTR, fr->offset);
        fputc(')', m);
    }
    fputs("</li>\n", m);
}

static void put_call(FILE *m, const mc_call_text *c)
{
    fputs("<div class=\"call\"><b>", m);
    if (c->rank >= 0)
        fprintf(m, "rank %d", c->rank);
    else
        fputs("rank ?", m);
    if (c->job[0]) {
        fputs(" of ", m);
        esc(m, c->job);
    }
    if (c->host[0]) {
        fputs(" on ", m);
        esc(m, c->host);
    }
    if (c->tid > 0)
        fprintf(m, ", thread %d", c->tid);
    fputs("</b>: <code>", m);
    esc(m, c->call ? c->call : "?");
    fputs("</code>\n", m);
    if (c->nargs) {
        fputs("<table class=\"args\"><tr><th>argument</th><th>value</th></tr>\n", m);
        for (size_t i = 0; i < c->nargs; i++) {
            fputs("<tr><td>", m);
            esc(m, c->args[i].name);
            fputs("</td><td>", m);
            esc(m, c->args[i].value);
            fputs("</td></tr>\n", m);
        }
        fputs("</table>\n", m);
    }
    if (c->nframes) {
        fputs("<ol class=\"stack\">\n", m);
        for (size_t i = 0; i < c->nframes && i < MAX_FRAMES; i++) {
            put_frame(m, &c->stack[i]);
            if (c->stack[i].function && strcmp(c->stack[i].function, "main") == 0)
                break;
        }
        fputs("</ol>\n", m);
        put_source(m, mc_call_site(c));
    }
    fputs("</div>\n", m);
}

static void put_finding(FILE *m, const mc_finding *f, size_t idx, int nprocs, const char *graph_svg)
{
    const char *sev = mc_severity_name(f->severity);
    char ranks[512];
    mc_ranks_text(f->ranks, f->nranks, ranks, sizeof ranks);
    fprintf(m, "<section class=\"finding %s%s\" id=\"finding-%zu\">\n<h2><span class=\"sev\">%s</span> ",
            sev, f->suppressed ? " suppressed" : "", idx + 1, f->severity == MC_SEV_ERROR ? "ERROR" : "WARNING");
    esc(m, mc_class_name(f->cls));
    if (f->suppressed) {
        fputs(" <span class=\"badge\">suppressed: ", m);
        esc(m, f->suppressed);
        fputs("</span>", m);
    }
    fputs("</h2>\n<pre class=\"message\">", m);
    esc(m, f->message);
    fputs("</pre>\n<p>ranks ", m);
    esc(m, ranks);
    if (nprocs > 0)
        fprintf(m, " (%zu of %d)", f->nranks, nprocs);
    fputs("</p>\n", m);
    if (f->cls == MC_CLASS_DEADLOCK && graph_svg && *graph_svg) {
        fputs("<div class=\"graph\">", m);
        fputs(graph_svg, m);    /* graphviz's own SVG: trusted, made by the launcher */
        fputs("</div>\n", m);
    }
    for (size_t i = 0; i < f->ncalls; i++)
        put_call(m, &f->calls[i]);
    fputs("</section>\n", m);
}

int mc_report_write_html(const char *path, const mc_report_doc *doc, const char *tool_version,
                         const char *graph_svg)
{
    FILE *m = fopen(path, "w");
    if (!m)
        return -1;
    int errors = 0, warnings = 0;
    mc_report_count(doc, &errors, &warnings);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>mpicheck report</title>\n<style>", m);
    fputs(style, m);
    fputs("</style>\n</head>\n<body>\n<h1>mpicheck report</h1>\n<p>", m);
    fprintf(m, "mpicheck ");
    esc(m, tool_version);
    fputs(", ", m);
    esc(m, doc->job.mpi_flavor ? doc->job.mpi_flavor : "unknown MPI");
    fputc(' ', m);
    esc(m, doc->job.mpi_version ? doc->job.mpi_version : "");
    if (doc->job.nprocs >= 0)
        fprintf(m, ", %d ranks", doc->job.nprocs);
    if (doc->job.mode) {
        fputs(", mode ", m);
        esc(m, doc->job.mode);
    }
    if (doc->job.timeout_s > 0)
        fprintf(m, ", timeout %g s", doc->job.timeout_s);
    fprintf(m, "</p>\n<p id=\"summary\"><b>%d error%s, %d warning%s</b>", errors, errors == 1 ? "" : "s",
            warnings, warnings == 1 ? "" : "s");
    if (mc_report_suppressed(doc))
        fprintf(m, ", %d suppressed", mc_report_suppressed(doc));
    if (doc->checks_off && doc->checks_off[0]) {
        fputs("; checks switched off: ", m);
        esc(m, doc->checks_off);
    }
    fputs("</p>\n", m);
    for (size_t i = 0; i < doc->nskipped; i++) {
        fprintf(m, "<p>not checked: %ld ", doc->skipped[i].count);
        esc(m, doc->skipped[i].check);
        if (doc->skipped[i].what) {
            fputs(" (", m);
            esc(m, doc->skipped[i].what);
            fputc(')', m);
        }
        fputs("</p>\n", m);
    }
    /* By class and severity: findings, and the findings' ranks. */
    if (doc->nfindings) {
        fputs("<table id=\"by-class\"><tr><th>class</th><th>severity</th><th>findings</th>"
              "<th>suppressed</th><th>first</th></tr>\n", m);
        for (int c = 0; c < MC_CLASS_COUNT_; c++)
            for (int s = 0; s < 2; s++) {
                size_t n = 0, supp = 0, first = 0;
                for (size_t i = 0; i < doc->nfindings; i++)
                    if ((int)doc->findings[i].cls == c && (int)doc->findings[i].severity == s) {
                        if (n++ == 0)
                            first = i;
                        supp += doc->findings[i].suppressed != NULL;
                    }
                if (n)
                    fprintf(m, "<tr><td>%s</td><td>%s</td><td>%zu</td><td>%zu</td>"
                            "<td><a href=\"#finding-%zu\">#%zu</a></td></tr>\n",
                            mc_class_name((mc_class)c), mc_severity_name((mc_severity)s), n, supp,
                            first + 1, first + 1);
            }
        fputs("</table>\n", m);
    } else {
        fputs("<p>No findings.</p>\n", m);
    }
    for (size_t i = 0; i < doc->nfindings; i++)
        put_finding(m, &doc->findings[i], i, doc->job.nprocs, graph_svg);
    fputs("</body>\n</html>\n", m);
    if (fclose(m) != 0)
        return -1;
    return 0;
}
