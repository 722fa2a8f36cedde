/*
 * text.c - the human-readable block printed on stderr for one finding
 * (layout in writers.h). Every line starts with "mpicheck: " so the block
 * can be told apart from the application's own output and grepped.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writers.h"

/* Frames deeper than this are rarely useful and make a deadlock report of
 * many ranks unreadable. */
#define MAX_FRAMES 12

#define RED_BOLD "\033[1;31m"
#define YELLOW "\033[33m"
#define RESET "\033[0m"
#define BOLD "\033[1m"

/* Writes s with control characters shown as '?': a newline would break the
 * one-prefix-per-line layout, and an escape sequence from a file name or
 * argument must not reach the terminal. */
static void put_clean(FILE *m, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        fputc(c < 0x20 && c != '\t' ? '?' : c == 0x7f ? '?' : (int)c, m);
    }
}

static void put_str(FILE *m, const char *s, const char *dflt)
{
    s = s ? s : dflt;
    put_clean(m, s, strlen(s));
}

static void put_frame(FILE *m, const mc_frame *fr)
{
    fputs("mpicheck:     at ", m);
    if (fr->file) {
        put_str(m, fr->function, "??");
        fputs(" (", m);
        put_str(m, fr->file, "");
        if (fr->line > 0)
            fprintf(m, ":%d", fr->line);
        fputc(')', m);
    } else if (fr->module) {
        /* No debug information: the address in the module's file when known
         * (`addr2line -e MODULE 0xOFFSET` finds the line where the module
         * has it), else where the pc is in this process. */
        put_str(m, fr->function, "??");
        fputs(" (", m);
        put_str(m, fr->module, "");
        if (fr->offset)
            fprintf(m, " +0x%" PRIxPTR ")", fr->offset);
        else
            fprintf(m, " @ 0x%" PRIxPTR ")", fr->pc);
    } else if (fr->function) {
        put_str(m, fr->function, "");
        fprintf(m, " (0x%" PRIxPTR ")", fr->pc);
    } else {
        fprintf(m, "0x%" PRIxPTR, fr->pc);
    }
    fputc('\n', m);
}

/* The source line of frame fr under it, as compilers show it, when its
 * file can be read from here. */
static void put_source(FILE *m, const mc_frame *fr)
{
    if (!fr->file || fr->line <= 0)
        return;
    FILE *src = fopen(fr->file, "r");
    if (!src)
        return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = 0;
    for (int i = 0; i < fr->line && (n = getline(&line, &cap, src)) >= 0; i++)
        ;
    if (n > 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            n--;
        fprintf(m, "mpicheck:     %5d | ", fr->line);
        put_clean(m, line, (size_t)n);
        fputc('\n', m);
    }
    free(line);
    fclose(src);
}

static void put_call(FILE *m, const mc_call_text *c, const mc_text_options *o)
{
    if (c->rank >= 0)
        fprintf(m, "mpicheck:   rank %d%s%s", c->rank, c->job[0] ? " of " : "", c->job);
    else
        fprintf(m, "mpicheck:   rank ?%s%s", c->job[0] ? " of " : "", c->job);
    if (c->host[0]) {
        fputs(" on ", m);
        put_str(m, c->host, "");
    }
    if (c->tid > 0) {
        fprintf(m, ", thread %d", c->tid);
        if (c->thread_name[0]) {
            fputs(" \"", m);
            put_str(m, c->thread_name, "");
            fputc('"', m);
        }
    }
    fputs(": ", m);
    put_str(m, c->call, "?");
    fputc('(', m);
    for (size_t i = 0; c->args && i < c->nargs; i++) {
        if (i)
            fputs(", ", m);
        put_str(m, c->args[i].name, "?");
        fputc('=', m);
        put_str(m, c->args[i].value, "?");
    }
    fputs(")\n", m);
    const mc_frame *site = o->source ? mc_call_site(c) : NULL;
    for (size_t i = 0; c->stack && i < c->nframes && i < MAX_FRAMES; i++) {
        put_frame(m, &c->stack[i]);
        if (&c->stack[i] == site)
            put_source(m, site);
        /* What is above main is the C runtime's start-up code. */
        if (c->stack[i].function && strcmp(c->stack[i].function, "main") == 0)
            break;
    }
}

/* What to do about a finding, where one line can say it (docs/checks.md
 * has the long form); NULL where the message says it already. */
static const char *hint(mc_class cls)
{
    switch (cls) {
    case MC_CLASS_DEADLOCK:
        return "each call above waits for another one of them: reorder the calls, or make one "
               "side nonblocking (MPI_Irecv/MPI_Isend, then MPI_Waitall) or use MPI_Sendrecv";
    case MC_CLASS_POTENTIAL_DEADLOCK:
        return "this works only while MPI buffers the sends: use MPI_Sendrecv or nonblocking "
               "calls, so that it does not depend on buffering";
    case MC_CLASS_COLLECTIVE_MISMATCH:
        return "every rank of the communicator must call the same collectives in the same order, "
               "with the same root and matching counts and types";
    case MC_CLASS_TYPE_MISMATCH:
        return "the type signatures of the send and the receive must match: the same basic "
               "types in the same order";
    case MC_CLASS_REQUEST_LEAK:
        return "complete every request (MPI_Wait, MPI_Test, or MPI_Request_free for a persistent "
               "one) before MPI_Finalize";
    case MC_CLASS_LOST_MESSAGE:
        return "post the matching receive, or check its source, tag and communicator";
    case MC_CLASS_BUFFER_MODIFIED:
        return "leave a send buffer alone (and read a receive buffer only) after the request "
               "completes: MPI_Wait or a successful MPI_Test";
    case MC_CLASS_BUFFER_OVERLAP:
        return "operations active at the same time must not share memory that one of them writes";
    default:
        return NULL;
    }
}

char *mc_finding_format_text(const mc_finding *f, int color)
{
    mc_text_options o = {.color = color, .ncalls = f ? f->ncalls : 0};
    return mc_finding_format(f, &o);
}

char *mc_finding_format(const mc_finding *f, const mc_text_options *o)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m;

    if (f == NULL || (m = open_memstream(&buf, &len)) == NULL)
        return NULL;
    int color = o->color;
    int warn = f->severity == MC_SEV_WARNING;
    const char *on = !color ? "" : warn ? YELLOW : RED_BOLD;
    fprintf(m, "mpicheck: %s%s%s %s", on, warn ? "WARNING" : "ERROR", color ? RESET : "",
            color ? BOLD : "");
    put_str(m, mc_class_name(f->cls), "?");
    fprintf(m, "%s\n", color ? RESET : "");
    /* A multi-line message keeps the prefix on each of its lines. */
    for (const char *s = f->message; s && *s;) {
        size_t n = strcspn(s, "\n");
        fputs("mpicheck:   ", m);
        put_clean(m, s, n);
        fputc('\n', m);
        s += n + (s[n] == '\n');
    }
    const char *h = hint(f->cls);
    if (h)
        fprintf(m, "mpicheck:   %shint:%s %s\n", color ? BOLD : "", color ? RESET : "", h);
    for (const char *s = o->extra; s && *s;) {
        size_t n = strcspn(s, "\n");
        fputs("mpicheck:   ", m);
        put_clean(m, s, n);
        fputc('\n', m);
        s += n + (s[n] == '\n');
    }
    for (size_t i = 0; f->calls && i < f->ncalls && i < o->ncalls; i++)
        put_call(m, &f->calls[i], o);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

char *mc_ranks_text(const int *ranks, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        char piece[32];
        if (j == i)
            snprintf(piece, sizeof piece, "%s%d", i ? "," : "", ranks[i]);
        else
            snprintf(piece, sizeof piece, "%s%d-%d", i ? "," : "", ranks[i], ranks[j]);
        size_t pl = strlen(piece);
        if (used + pl + 4 > len) {     /* room for "..." and the NUL */
            if (used + 4 <= len)
                memcpy(buf + used, "...", 4);
            return buf;
        }
        memcpy(buf + used, piece, pl + 1);
        used += pl;
        i = j + 1;
    }
    return buf;
}
