/*
 * filter.c - the checks switched off and the suppressions (filter.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "filter.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skipped.h"

#define MAX_FRAMES 64

typedef struct {
    char *name;
    char *cls;                  /* pattern */
    char *call;                 /* pattern, NULL: any */
    char *frames[MAX_FRAMES];   /* "fun:x", "src:f.c:12" or "..." */
    int nframes;
} entry;

struct mc_filter {
    unsigned char off[MC_CLASS_COUNT_];
    entry *entries;
    size_t nentries, cap;
};

mc_filter *mc_filter_new(void)
{
    return mc_calloc(1, sizeof(mc_filter));
}

static void entry_clear(entry *e)
{
    free(e->name);
    free(e->cls);
    free(e->call);
    for (int i = 0; i < e->nframes; i++)
        free(e->frames[i]);
    memset(e, 0, sizeof *e);
}

void mc_filter_free(mc_filter *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nentries; i++)
        entry_clear(&f->entries[i]);
    free(f->entries);
    free(f);
}

/* ---- --checks ---- */

static void class_list(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < MC_CLASS_COUNT_ && used < len; c++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", c ? ", " : "",
                                 mc_class_name((mc_class)c));
}

int mc_filter_set_checks(mc_filter *f, const char *spec, char *err, size_t errlen)
{
    unsigned char off[MC_CLASS_COUNT_] = {0};
    char *copy = mc_strdup(spec ? spec : "");
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save)) {
        while (*w == ' ')
            w++;
        int neg = *w == '-';
        const char *name = w + (neg || *w == '+');
        if (strcmp(name, "all") == 0) {
            memset(off, neg, sizeof off);
            continue;
        }
        if (strcmp(name, "none") == 0 && !neg) {
            memset(off, 1, sizeof off);
            continue;
        }
        int c = mc_class_from_name(name);
        if (c < 0) {
            char names[1024];
            class_list(names, sizeof names);
            snprintf(err, errlen, "unknown check '%s' in --checks (the checks: all, none, %s; "
                     "-NAME switches one off)", name, names);
            rc = -1;
        } else {
            off[c] = (unsigned char)neg;
        }
    }
    free(copy);
    if (rc == 0)
        memcpy(f->off, off, sizeof off);
    return rc;
}

int mc_filter_check_on(const mc_filter *f, mc_class cls)
{
    return !f || cls < 0 || cls >= MC_CLASS_COUNT_ || !f->off[cls];
}

void mc_filter_checks_off_text(const mc_filter *f, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int c = 0; f && c < MC_CLASS_COUNT_ && used < len; c++)
        if (f->off[c])
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                     mc_class_name((mc_class)c));
}

/* ---- suppression files ---- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static int add_entry(mc_filter *f, entry *e)
{
    if (f->nentries == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 8;
        entry *n = mc_realloc(f->entries, cap * sizeof *n);
        if (!n)
            return -1;
        f->entries = n;
        f->cap = cap;
    }
    f->entries[f->nentries++] = *e;
    memset(e, 0, sizeof *e);
    return 0;
}

/* One file. State: 0 outside an entry, 1 expecting its name, 2 its class,
 * 3 its call or frames. */
static int load_file(mc_filter *f, const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errlen, "cannot read the suppressions file %s: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, state = 0, opened_at = 0, rc = 0;
    entry e = {0};
    const char *what = NULL;
    while (rc == 0 && getline(&line, &cap, fp) >= 0) {
        lineno++;
        char *s = trim(line);
        if (*s == '\0' || *s == '#')
            continue;
        what = NULL;
        if (state == 0) {
            if (strcmp(s, "{") != 0)
                what = "expected '{' to open an entry";
            else {
                state = 1;
                opened_at = lineno;
            }
        } else if (strcmp(s, "}") == 0) {
            if (state == 1)
                what = "the entry has no name";
            else if (state == 2)
                what = "the entry has no 'mpicheck:CLASS' line";
            else if (add_entry(f, &e) != 0)
                what = "out of memory";
            state = 0;
        } else if (strcmp(s, "{") == 0) {
            what = "'{' inside an entry (a '}' is missing)";
        } else if (state == 1) {
            if (!(e.name = mc_strdup(s)))
                what = "out of memory";
            state = 2;
        } else if (state == 2) {
            if (strncmp(s, "mpicheck:", 9) != 0)
                what = "expected 'mpicheck:CLASS' after the entry's name";
            else if (strpbrk(s + 9, "*?[") == NULL && mc_class_from_name(s + 9) < 0)
                what = "unknown class (docs/checks.md lists them)";
            else if (!(e.cls = mc_strdup(s + 9)))
                what = "out of memory";
            state = 3;
        } else if (strncmp(s, "call:", 5) == 0 && e.nframes == 0 && !e.call) {
            if (!(e.call = mc_strdup(trim(s + 5))))
                what = "out of memory";
        } else if (strncmp(s, "fun:", 4) == 0 || strncmp(s, "src:", 4) == 0 || strcmp(s, "...") == 0) {
            if (e.nframes == MAX_FRAMES)
                what = "more than 64 frame lines";
            else if (!(e.frames[e.nframes++] = mc_strdup(s)))
                what = "out of memory";
        } else {
            what = "expected 'call:FUNCTION', 'fun:NAME', 'src:FILE:LINE', '...' or '}'";
        }
        if (what) {
            snprintf(err, errlen, "%s:%d: %s: '%s'", path, lineno, what, s);
            rc = -1;
        }
    }
    if (rc == 0 && state != 0) {
        snprintf(err, errlen, "%s:%d: the entry opened here has no '}'", path, opened_at);
        rc = -1;
    }
    entry_clear(&e);
    free(line);
    fclose(fp);
    return rc;
}

int mc_filter_load(mc_filter *f, const char *paths, char *err, size_t errlen)
{
    char *copy = mc_strdup(paths ? paths : "");
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *p = strtok_r(copy, ":", &save); p && rc == 0; p = strtok_r(NULL, ":", &save))
        rc = load_file(f, p, err, errlen);
    free(copy);
    return rc;
}

/* ---- matching ---- */

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int frame_matches(const char *pat, const mc_frame *fr)
{
    if (strncmp(pat, "fun:", 4) == 0)   /* exactly, or as a pattern: a C++ name's "[3]" is no bracket */
        return fr->function && (strcmp(pat + 4, fr->function) == 0 || fnmatch(pat + 4, fr->function, 0) == 0);
    if (!fr->file)
        return 0;
    char whole[4200], base[600];
    snprintf(whole, sizeof whole, "%s:%d", fr->file, fr->line);
    snprintf(base, sizeof base, "%s:%d", base_name(fr->file), fr->line);
    return fnmatch(pat + 4, whole, 0) == 0 || fnmatch(pat + 4, base, 0) == 0;
}

/* Whether pats[0..np) match a prefix of the frames ("..." any run). */
static int frames_match(char *const *pats, int np, const mc_frame *fr, size_t nf)
{
    if (np == 0)
        return 1;
    if (strcmp(pats[0], "...") == 0) {
        for (size_t skip = 0; skip <= nf; skip++)
            if (frames_match(pats + 1, np - 1, fr + skip, nf - skip))
                return 1;
        return 0;
    }
    return nf > 0 && frame_matches(pats[0], fr) && frames_match(pats + 1, np - 1, fr + 1, nf - 1);
}

const char *mc_filter_match(const mc_filter *f, const mc_finding *x)
{
    const char *cls = mc_class_name(x->cls);
    const mc_call_text *c = x->ncalls ? &x->calls[0] : NULL;
    for (size_t i = 0; f && cls && i < f->nentries; i++) {
        const entry *e = &f->entries[i];
        if (fnmatch(e->cls, cls, 0) != 0)
            continue;
        if (e->call && (!c || !c->call || fnmatch(e->call, c->call, 0) != 0))
            continue;
        if (e->nframes && (!c || !frames_match(e->frames, e->nframes, c->stack, c->nframes)))
            continue;
        return e->name;
    }
    return NULL;
}

char *mc_filter_entry_for(const mc_finding *x)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return NULL;
    fprintf(m, "{\n   <insert_a_suppression_name_here>\n   mpicheck:%s\n", mc_class_name(x->cls));
    const mc_call_text *c = x->ncalls ? &x->calls[0] : NULL;
    if (c && c->call)
        fprintf(m, "   call:%s\n", c->call);
    for (size_t i = 0; c && i < c->nframes && i < MAX_FRAMES; i++) {
        const mc_frame *fr = &c->stack[i];
        /* The innermost frame by its line: the entry silences this finding,
         * not every one of its function. */
        if (i == 0 && fr->file && fr->line > 0)
            fprintf(m, "   src:%s:%d\n", base_name(fr->file), fr->line);
        else if (fr->function)
            fprintf(m, "   fun:%s\n", fr->function);
        else
            fputs("   ...\n", m);
        if (fr->function && strcmp(fr->function, "main") == 0)
            break;
    }
    fputs("}\n", m);
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
