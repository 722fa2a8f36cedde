/*
 * report.c - mc_report_*: the one path from a check to the user. Builds the
 * finding, prints it on stderr and appends it to this rank's part file.
 *
 * RATIONALE: findings are written the moment they are made, with one write()
 * for the text block (so ranks' lines do not interleave) and a flushed line
 * in the part file (so an abort or crash right after cannot lose them).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "report.h"
#include "skipped.h"
#include "stack.h"
#include "config.h"
#include "filter.h"
#include "writers.h"
#include "report_internal.h"

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

/* A check that fires inside a loop would otherwise report the same thing at
 * every iteration: each (class, function, call site, message) is reported
 * once per rank, and the repeats are counted. */
#define SEEN_SLOTS 4096
static uint64_t seen[SEEN_SLOTS];
static unsigned long repeats;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static int client_off;          /* MPICHECK_OFF() depth (guarded by report_lock) */
static char phase[64];          /* MPICHECK_PHASE(), "" for none */

/* Returns 1 when this finding was already reported on this rank. */
static int seen_before(mc_class cls, const mc_call *c, const char *message)
{
    uint64_t h = 14695981039346656037ULL;
    h = fnv(h, &cls, sizeof cls);
    h = fnv(h, &c->fn, sizeof c->fn);
    h = fnv(h, &c->caller, sizeof c->caller);
    h = fnv(h, message, strlen(message));
    int dup = 0;
    pthread_mutex_lock(&report_lock);
    /* A repeat inside a switched-off region, or in another phase, is
     * another finding: a suppressed first one must not hide the rest. */
    int off = client_off > 0;
    h = fnv(fnv(h, &off, sizeof off), phase, strlen(phase));
    if (h == 0)
        h = 1;
    for (size_t i = 0, slot = h % SEEN_SLOTS; i < SEEN_SLOTS; i++, slot = (slot + 1) % SEEN_SLOTS) {
        if (seen[slot] == h) {
            dup = 1;
            repeats++;
            break;
        }
        if (seen[slot] == 0) {
            seen[slot] = h;
            break;
        }
    }
    pthread_mutex_unlock(&report_lock);
    return dup;
}

unsigned long mc_report_repeats(void)
{
    return repeats;
}

/* The run as core last described it, and what report keeps of its own. */
static mc_report_settings run = {.world_rank = -1, .world_size = -1};
static int errors, warnings;        /* findings reported, guarded by report_lock */
static int aborting;

/* --checks and --suppressions, read at the first settings that name
 * them. A bad list or file was refused by the launcher already; preloaded
 * by hand, the rank says so once and reports everything. */
static mc_filter *filter;

static void make_filter(const mc_report_settings *s)
{
    static int tried;
    if (tried || (!s->checks && !s->suppressions))
        return;
    tried = 1;
    char err[1024];
    filter = mc_filter_new();
    if (filter && s->checks && mc_filter_set_checks(filter, s->checks, err, sizeof err) != 0)
        fprintf(stderr, "mpicheck: %s: every check stays on\n", err);
    if (filter && s->suppressions && mc_filter_load(filter, s->suppressions, err, sizeof err) != 0)
        fprintf(stderr, "mpicheck: %s: the suppressions before it apply\n", err);
}

void mc_report_configure(const mc_report_settings *s)
{
    pthread_mutex_lock(&report_lock);
    make_filter(s);
    run = *s;
    run.part_dir = NULL;    /* part_out.c keeps its own copy */
    run.collector = NULL;
    pthread_mutex_unlock(&report_lock);
    mc_part_out_configure(s);
}

void mc_report_counts(int *e, int *w)
{
    pthread_mutex_lock(&report_lock);
    *e = errors;
    *w = warnings;
    pthread_mutex_unlock(&report_lock);
}

int mc_report_aborting(void)
{
    return __atomic_load_n(&aborting, __ATOMIC_RELAXED);
}

static void fill_call(mc_call_text *ct, int fn, int fortran, const mc_value *vals, int nvals,
                      const uint32_t *ids, int nids, const uintptr_t *pcs, size_t npcs)
{
    const mc_fn_desc *d = &mc_fn_table[fn];
    ct->rank = run.world_rank;
    snprintf(ct->job, sizeof ct->job, "%s", run.job ? run.job : "");
    ct->tid = 0;
    ct->thread_name[0] = 0;
    ct->host[0] = 0;    /* named later where the job ran on several hosts (merge.c); a call
                         * text in memory not zeroed printed "rank 1 on gU:" */
    ct->call = mc_strdup(d->name);
    if (fortran)
        mc_call_text_fortran_name(ct);
    ct->nargs = 0;
    ct->args = mc_calloc(d->nparams ? d->nparams : 1, sizeof *ct->args);
    for (int i = 0; ct->args && i < d->nparams && i < nvals; i++) {
        ct->args[ct->nargs].name = mc_strdup(d->params[i].name);
        ct->args[ct->nargs].value = i < nids && ids[i]
            ? mc_render_value_as_made(&d->params[i], &vals[i], ids[i])
            : mc_render_value(&d->params[i], &vals[i]);
        ct->nargs++;
    }
    ct->stack = NULL;
    ct->nframes = npcs ? mc_stack_resolve_inlined(pcs, npcs, &ct->stack) : 0;
}

static void fill_from_call(mc_call_text *ct, const mc_call *c)
{
    uintptr_t pcs[MC_ORIGIN_MAX_PCS * 2];
    size_t n = mc_stack_capture(pcs, sizeof pcs / sizeof pcs[0]);
    if (n == 0 && c->caller) {
        pcs[0] = (uintptr_t)c->caller;
        n = 1;
    }
    size_t from = mc_stack_site_index(pcs, n, (uintptr_t)c->caller);
    fill_call(ct, c->fn, c->fortran, c->vals, c->desc->nparams, NULL, 0, pcs + from, n - from);
    mc_stack_prepend_python(&ct->stack, &ct->nframes);     /* an mpi4py program's script lines */
}

static void fill_from_origin(mc_call_text *ct, const mc_origin *o)
{
    fill_call(ct, o->fn, o->fortran, o->vals, o->nvals, o->ids, o->nids, o->pcs, (size_t)o->npcs);
}

void mc_origin_capture(mc_origin *o, const mc_call *c, int full_stack)
{
    o->fn = c->fn;
    o->fortran = c->fortran;
    o->nvals = !c->vals ? 0 : c->desc->nparams < MC_ORIGIN_MAX_VALS ? c->desc->nparams : MC_ORIGIN_MAX_VALS;
    if (o->nvals)
        memcpy(o->vals, c->vals, (size_t)o->nvals * sizeof(mc_value));
    o->npcs = 0;
    o->nids = 0;
    if (full_stack) {
        size_t n = mc_stack_capture(o->pcs, MC_ORIGIN_MAX_PCS);
        o->npcs = (int)mc_stack_trim_to_site(o->pcs, n, (uintptr_t)c->caller);
    }
    if (o->npcs == 0 && c->caller) {
        o->pcs[0] = (uintptr_t)c->caller;
        o->npcs = 1;
    }
}

void mc_report_fill_origin(mc_call_text *ct, const mc_origin *o)
{
    fill_from_origin(ct, o);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}


void mc_report_client_off(int delta)
{
    pthread_mutex_lock(&report_lock);
    client_off += delta;
    if (client_off < 0)
        client_off = 0;     /* an MPICHECK_ON() too many */
    pthread_mutex_unlock(&report_lock);
}

void mc_report_phase(const char *name)
{
    pthread_mutex_lock(&report_lock);
    snprintf(phase, sizeof phase, "%s", name ? name : "");
    pthread_mutex_unlock(&report_lock);
}

/* The phase's line at the end of f's message. */
static void add_phase(mc_finding *f)
{
    if (!phase[0] || !f->message)
        return;
    size_t n = strlen(f->message) + strlen(phase) + 16;
    char *m = mc_malloc(n);
    if (!m)
        return;
    snprintf(m, n, "%s\nphase: %s", f->message, phase);
    free(f->message);
    f->message = m;
}

/* Prints, stores and frees the finding. Its ranks are this rank and the
 * ranks of its calls. */
static void emit(mc_finding *f)
{
    int rank = run.world_rank;
    f->severity = mc_class_default_severity(f->cls);
    f->ranks = mc_malloc((f->ncalls + 1) * sizeof(int));
    if (f->ranks) {
        f->ranks[0] = rank;
        f->nranks = 1;
        for (size_t i = 0; i < f->ncalls; i++)
            if (f->calls[i].rank >= 0)
                f->ranks[f->nranks++] = f->calls[i].rank;
        qsort(f->ranks, f->nranks, sizeof(int), cmp_int);
        size_t k = 0;
        for (size_t i = 0; i < f->nranks; i++)
            if (k == 0 || f->ranks[k - 1] != f->ranks[i])
                f->ranks[k++] = f->ranks[i];
        f->nranks = k;
    }
    pthread_mutex_lock(&report_lock);
    if (!mc_filter_check_on(filter, f->cls)) {     /* --checks switched it off */
        pthread_mutex_unlock(&report_lock);
        mc_finding_clear(f);
        return;
    }
    add_phase(f);
    const char *suppression = mc_filter_match(filter, f);
    if (!suppression && client_off > 0)
        suppression = "client request: checking switched off (MPICHECK_OFF or MPI_Pcontrol(0))";
    if (suppression)
        f->suppressed = mc_strdup(suppression);
    if (suppression)
        ;   /* written down marked, counted by the launcher, not printed */
    else if (f->severity == MC_SEV_ERROR)
        errors++;
    else
        warnings++;
    int stored = mc_part_out_finding(f);
    /* Under the launcher, the launcher prints each finding once for all
     * ranks (launcher/live.c); a finding that did not reach the part file
     * is printed here, so it is never lost. */
    char *text = suppression || (stored && mc_part_out_launcher_prints()) ? NULL : mc_finding_format_text(f, run.color);
    if (text) {
        size_t len = strlen(text), off = 0;
        while (off < len) {
            ssize_t w = write(STDERR_FILENO, text + off, len - off);
            if (w <= 0 && errno != EINTR)
                break;
            if (w > 0)
                off += (size_t)w;
        }
        free(text);
    }
    pthread_mutex_unlock(&report_lock);
    mc_finding_clear(f);
}

static char *vformat(const char *prefix, const char *fmt, va_list ap)
{
    char body[1024];
    vsnprintf(body, sizeof body, fmt, ap);
    size_t n = strlen(prefix) + strlen(body) + 1;
    char *s = mc_malloc(n);
    if (s)
        snprintf(s, n, "%s%s", prefix, body);
    return s;
}

/* The one builder behind the public functions: the finding's calls are c's
 * (with the application's current stack) and then origin's (where an object
 * was made), whichever are given. Repeats of a call's finding are dropped. */
/* The last finding this thread made about a call in flight, for what MPI
 * reports from inside the same call (mc_report_found_in). */
static __thread struct {
    const mc_call *call;
    uint64_t seq;
    int cls;
    char message[240];
} last;

static void remember(mc_class cls, const mc_call *c, const char *message)
{
    if (!c)
        return;
    last.call = c;
    last.seq = c->seq;
    last.cls = cls;
    snprintf(last.message, sizeof last.message, "%s", message ? message : "");
}

int mc_report_found_in(const mc_call *c, char *message, size_t len)
{
    if (!c || last.call != c || last.seq != c->seq)
        return -1;
    snprintf(message, len, "%s", last.message);
    return last.cls;
}

static void report(mc_class cls, const mc_call *c, const mc_origin *origin,
                   const char *prefix, const char *fmt, va_list ap)
{
    mc_finding f = {0};
    f.cls = cls;
    f.message = vformat(prefix, fmt, ap);
    remember(cls, c, f.message);
    if (c && f.message && seen_before(cls, c, f.message)) {
        free(f.message);
        return;
    }
    f.calls = mc_calloc(2, sizeof *f.calls);
    if (f.calls) {
        if (c)
            fill_from_call(&f.calls[f.ncalls++], c);
        if (origin)
            fill_from_origin(&f.calls[f.ncalls++], origin);
    }
    emit(&f);
}

void mc_report_call(mc_class cls, const mc_call *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(cls, c, NULL, "", fmt, ap);
    va_end(ap);
}

static void report_arg(const mc_call *c, int argi, const mc_origin *origin,
                       const char *fmt, va_list ap)
{
    char prefix[160];
    snprintf(prefix, sizeof prefix, "argument %d (%s) of %s ", argi + 1,
             c->desc->params[argi].name, c->desc->name);
    report(MC_CLASS_INVALID_ARGUMENT, c, origin, prefix, fmt, ap);
}

void mc_report_arg(const mc_call *c, int argi, const char *fmt, ...)
{
    ((mc_call *)c)->invalid = 1;    /* even when the report is a repeat */
    va_list ap;
    va_start(ap, fmt);
    report_arg(c, argi, NULL, fmt, ap);
    va_end(ap);
}

void mc_report_arg_origin(const mc_call *c, int argi, const mc_origin *origin,
                          const char *fmt, ...)
{
    ((mc_call *)c)->invalid = 1;
    va_list ap;
    va_start(ap, fmt);
    report_arg(c, argi, origin, fmt, ap);
    va_end(ap);
}

void mc_report_call_origin(mc_class cls, const mc_call *c, const mc_origin *origin,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(cls, c, origin, "", fmt, ap);
    va_end(ap);
}

void mc_report_origin(mc_class cls, const mc_origin *origin, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(cls, NULL, origin, "", fmt, ap);
    va_end(ap);
}

static void report_with(mc_class cls, const mc_call *c, int fn, const void *caller, mc_call_text *others,
                        size_t nothers, const char *cause, const char *fmt, va_list ap)
{
    mc_finding f = {0};
    f.cls = cls;
    f.message = vformat("", fmt, ap);
    remember(cls, c, f.message);
    int dup = 0;
    if (f.message) {
        mc_call key = {.fn = c ? c->fn : fn, .caller = c ? c->caller : caller};
        dup = seen_before(cls, &key, f.message);
    }
    f.calls = dup ? NULL : mc_calloc(nothers + 1, sizeof *f.calls);
    if (!f.calls) {
        /* Free the others' contents through a finding that owns a copy. */
        mc_finding tmp = {.message = f.message};
        tmp.calls = mc_malloc((nothers ? nothers : 1) * sizeof *tmp.calls);
        if (tmp.calls) {
            memcpy(tmp.calls, others, nothers * sizeof *others);
            tmp.ncalls = nothers;
        }
        mc_finding_clear(&tmp);
        return;
    }
    if (c)
        fill_from_call(&f.calls[f.ncalls++], c);
    for (size_t i = 0; i < nothers; i++)
        f.calls[f.ncalls++] = others[i];
    f.cause = cause && *cause ? mc_strdup(cause) : NULL;
    emit(&f);
}

void mc_report_with(mc_class cls, const mc_call *c, int fn, const void *caller,
                    mc_call_text *others, size_t nothers, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_with(cls, c, fn, caller, others, nothers, NULL, fmt, ap);
    va_end(ap);
}

void mc_report_with_cause(mc_class cls, const mc_call *c, int fn, const void *caller,
                          mc_call_text *others, size_t nothers, const char *cause, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_with(cls, c, fn, caller, others, nothers, cause, fmt, ap);
    va_end(ap);
}

void mc_report_fill_call(mc_call_text *ct, const mc_call *c)
{
    fill_from_call(ct, c);
}

void mc_report_fill_call_args(mc_call_text *ct, const mc_call *c)
{
    fill_call(ct, c->fn, c->fortran, c->vals, c->desc->nparams, NULL, 0, NULL, 0);
}

void mc_report_fill_call_vals(mc_call_text *ct, int fn, const mc_value *vals, int nvals,
                              const uintptr_t *pcs, size_t npcs)
{
    fill_call(ct, fn, 0, vals, nvals, NULL, 0, pcs, npcs);
}

void mc_report_abort_job(const char *why)
{
    __atomic_store_n(&aborting, 1, __ATOMIC_RELAXED);
    mc_report_flush();
    fprintf(stderr, "mpicheck: aborting the job after the %s\n", why);
    fflush(stderr);
    /* MPI_Abort kills the job at once; Hydra has been seen to drop what a
     * rank wrote to stderr just before. 200 ms lets it through. */
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL);
    PMPI_Abort(MPI_COMM_WORLD, run.error_exitcode ? run.error_exitcode : 1);
    _exit(run.error_exitcode ? run.error_exitcode : 1);
}
