/*
 * calltext.c - one rank's call (function, arguments, stack) as text that
 * travels to the rank writing a finding about several ranks: the deadlock
 * detector and the collective handshakes send these.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calltext.h"
#include "skipped.h"

static void put(char *buf, size_t cap, size_t *len, const char *s)
{
    for (; s && *s && *len + 1 < cap; s++)
        buf[(*len)++] = (*s == '\t' || *s == '\n') ? ' ' : *s;
    buf[*len] = 0;
}

static void sep(char *buf, size_t cap, size_t *len, char c)
{
    if (*len + 1 < cap) {
        buf[(*len)++] = c;
        buf[*len] = 0;
    }
}

/* One line per item: "C call", "A name value", "F function file line module pc",
 * "T tid name" (the thread, when named), fields separated by tabs (put()
 * keeps tabs and newlines out of values). */
void mc_calltext_serialize(const mc_call_text *ct, char *buf, size_t cap)
{
    size_t len = 0;
    char num[64];
    buf[0] = 0;
    sep(buf, cap, &len, 'C');
    sep(buf, cap, &len, '\t');
    put(buf, cap, &len, ct->call);
    sep(buf, cap, &len, '\n');
    if (ct->tid > 0) {
        sep(buf, cap, &len, 'T');
        sep(buf, cap, &len, '\t');
        snprintf(num, sizeof num, "%d", ct->tid);
        put(buf, cap, &len, num);
        sep(buf, cap, &len, '\t');
        put(buf, cap, &len, ct->thread_name);
        sep(buf, cap, &len, '\n');
    }
    for (size_t i = 0; i < ct->nargs; i++) {
        sep(buf, cap, &len, 'A');
        sep(buf, cap, &len, '\t');
        put(buf, cap, &len, ct->args[i].name);
        sep(buf, cap, &len, '\t');
        put(buf, cap, &len, ct->args[i].value);
        sep(buf, cap, &len, '\n');
    }
    for (size_t i = 0; i < ct->nframes; i++) {
        const mc_frame *f = &ct->stack[i];
        sep(buf, cap, &len, 'F');
        sep(buf, cap, &len, '\t');
        put(buf, cap, &len, f->function ? f->function : "");
        sep(buf, cap, &len, '\t');
        put(buf, cap, &len, f->file ? f->file : "");
        sep(buf, cap, &len, '\t');
        snprintf(num, sizeof num, "%d", f->line);
        put(buf, cap, &len, num);
        sep(buf, cap, &len, '\t');
        put(buf, cap, &len, f->module ? f->module : "");
        sep(buf, cap, &len, '\t');
        snprintf(num, sizeof num, "%llx", (unsigned long long)f->pc);
        put(buf, cap, &len, num);
        sep(buf, cap, &len, '\t');
        snprintf(num, sizeof num, "%llx", (unsigned long long)f->offset);
        put(buf, cap, &len, num);
        sep(buf, cap, &len, '\n');
    }
}

static char *field(char **p)
{
    char *s = *p, *e = s;
    while (*e && *e != '\t' && *e != '\n')
        e++;
    char *out = mc_strndup(s, (size_t)(e - s));
    *p = *e == '\t' ? e + 1 : e;
    return out;
}

void mc_calltext_parse(const char *text, int rank, mc_call_text *ct)
{
    memset(ct, 0, sizeof *ct);
    ct->rank = rank;
    size_t na = 0, nf = 0;
    for (const char *p = text; *p; p++)
        if (*p == '\n') {
            if (p[1] == 'A') na++;
            if (p[1] == 'F') nf++;
        }
    ct->args = mc_calloc(na + 1, sizeof *ct->args);
    ct->stack = mc_calloc(nf + 1, sizeof *ct->stack);
    char *copy = mc_strdup(text), *p = copy;
    while (copy && *p) {
        char kind = *p;
        char *line_end = strchr(p, '\n');
        if (line_end)
            *line_end = 0;
        char *q = p + (p[1] == '\t' ? 2 : 1);
        if (kind == 'C' && !ct->call) {
            ct->call = field(&q);
        } else if (kind == 'A' && ct->args && ct->nargs < na) {
            ct->args[ct->nargs].name = field(&q);
            ct->args[ct->nargs].value = field(&q);
            ct->nargs++;
        } else if (kind == 'T') {
            char *tid = field(&q), *name = field(&q);
            ct->tid = tid ? atoi(tid) : 0;
            snprintf(ct->thread_name, sizeof ct->thread_name, "%s", name ? name : "");
            free(tid);
            free(name);
        } else if (kind == 'F' && ct->stack && ct->nframes < nf) {
            mc_frame *f = &ct->stack[ct->nframes++];
            f->function = field(&q);
            f->file = field(&q);
            char *ln = field(&q);
            f->line = ln ? atoi(ln) : 0;
            free(ln);
            f->module = field(&q);
            char *pcs = field(&q);
            f->pc = pcs ? (uintptr_t)strtoull(pcs, NULL, 16) : 0;
            free(pcs);
            char *offs = field(&q);
            f->offset = offs ? (uintptr_t)strtoull(offs, NULL, 16) : 0;
            free(offs);
            if (f->function && !*f->function) { free(f->function); f->function = NULL; }
            if (f->file && !*f->file) { free(f->file); f->file = NULL; }
            if (f->module && !*f->module) { free(f->module); f->module = NULL; }
        }
        if (!line_end)
            break;
        p = line_end + 1;
    }
    free(copy);
    if (!ct->call)
        ct->call = mc_strdup("(unknown call)");
}

