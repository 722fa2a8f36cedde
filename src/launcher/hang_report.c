/*
 * hang_report.c - the `hang` finding (hang_report.h).
 *
 * The stuck threads are asked at once (dump_request raised on every board,
 * then one signal per thread) and given up to DUMP_WAIT_S to answer; a
 * thread that does not (its signal taken by the program, a handler that
 * cannot run) is reported with its call's name only. Their stacks are
 * resolved here, in each rank's own mappings, while the ranks still run.
 */
#define _GNU_SOURCE
#include "hang_report.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "finding.h"
#include "skipped.h"
#include "stack.h"
#include "live.h"
#include "writers.h"

#define DUMP_WAIT_S 3.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int in_call(const mc_board_thread *s)
{
    return __atomic_load_n(&s->used, __ATOMIC_ACQUIRE) && __atomic_load_n(&s->fn, __ATOMIC_RELAXED) >= 0;
}

/* The threads asked: those in MPI calls, or (all) every thread with a slot. */
static int asked(const mc_board_thread *s, int all)
{
    return all ? __atomic_load_n(&s->used, __ATOMIC_ACQUIRE) != 0 : in_call(s);
}

/* Raises the request on every chosen board, signals its threads (asked),
 * and waits for their answers. Returns the request. */
static uint32_t ask_stacks(const mc_hang_board *boards, size_t n, const char *chosen, int all)
{
    uint32_t req = 0;
    for (size_t i = 0; i < n; i++)
        if (boards[i].page->dump_request > req)
            req = boards[i].page->dump_request;
    req++;
    for (size_t i = 0; i < n; i++) {
        mc_board_page *b = boards[i].page;
        if (!chosen[i] || b->dump_signal <= 0 || b->relayed)   /* never a pid of another node */
            continue;
        __atomic_store_n(&b->dump_request, req, __ATOMIC_RELEASE);
        for (int t = 0; t < MC_BOARD_THREADS; t++)
            if (asked(&b->threads[t], all))
                syscall(SYS_tgkill, b->pid, b->threads[t].tid, b->dump_signal);
    }
    for (double end = now_s() + DUMP_WAIT_S; now_s() < end;) {
        int waiting = 0;
        for (size_t i = 0; i < n && !waiting; i++) {
            const mc_board_page *b = boards[i].page;
            if (!chosen[i] || b->dump_signal <= 0 || !mc_hang_pid_alive(b->pid))
                continue;
            for (int t = 0; t < MC_BOARD_THREADS && !waiting; t++)
                waiting = asked(&b->threads[t], all)
                          && __atomic_load_n(&b->threads[t].answered, __ATOMIC_ACQUIRE) != req;
        }
        if (!waiting)
            break;
        struct timespec nap = {0, 20 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    return req;
}

/* "name=value" lines into ct's arguments. */
static void parse_args(mc_call_text *ct, const char *text, size_t cap)
{
    size_t len = strnlen(text, cap), lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    if (!lines || !(ct->args = mc_calloc(lines, sizeof *ct->args)))
        return;
    const char *p = text, *end = text + len;
    while (p < end && ct->nargs < lines) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eq = memchr(p, '=', (size_t)((nl ? nl : end) - p));
        if (!nl)
            break;
        if (eq) {
            ct->args[ct->nargs].name = mc_strndup(p, (size_t)(eq - p));
            ct->args[ct->nargs].value = mc_strndup(eq + 1, (size_t)(nl - eq - 1));
            ct->nargs++;
        }
        p = nl + 1;
    }
}

/* ct: thread s's call (or, outside one, what stands for it: outside). */
static void fill_call(mc_call_text *ct, const mc_hang_board *hb, const mc_board_thread *s, uint32_t req,
                      const char *outside)
{
    const mc_board_page *b = hb->page;
    memset(ct, 0, sizeof *ct);
    ct->rank = b->world_rank;
    snprintf(ct->job, sizeof ct->job, "%s", b->job);
    const char *name = s->fn >= 0 ? mc_hang_fn_name(b, hb->maplen, s->fn) : outside;
    ct->call = mc_strdup(name ? name : "(an MPI call)");
    if (s->fn >= 0 && name && __atomic_load_n(&s->fortran, __ATOMIC_RELAXED))
        mc_call_text_fortran_name(ct);
    if (b->relayed && s->fn >= 0 && b->wait.waiting && b->wait.fn == s->fn && b->wait_site[0]
        && (ct->stack = mc_calloc(1, sizeof *ct->stack))) {
        /* A rank on another node answers no dump: its wait's call site,
         * resolved there, stands for the stack. */
        char site[sizeof b->wait_site], *file = NULL, *line = NULL;
        snprintf(site, sizeof site, "%s", b->wait_site);
        if ((file = strchr(site, '\t')) && (line = strchr(file + 1, '\t'))) {
            *file++ = '\0';
            *line++ = '\0';
            ct->stack[0].function = site[0] ? mc_strdup(site) : NULL;
            ct->stack[0].file = mc_strdup(file);
            ct->stack[0].line = atoi(line);
        }
        ct->nframes = 1;
        return;
    }
    if (__atomic_load_n(&s->answered, __ATOMIC_ACQUIRE) != req)
        return;
    parse_args(ct, s->args, sizeof s->args);
    size_t nf = s->nframes > 0 && s->nframes <= MC_BOARD_FRAMES ? (size_t)s->nframes : 0;
    if (nf) {
        uintptr_t pcs[MC_BOARD_FRAMES];
        for (size_t k = 0; k < nf; k++)
            pcs[k] = (uintptr_t)s->pcs[k];
        ct->nframes = mc_stack_resolve_pid(b->pid, pcs, nf, &ct->stack);
    }
}

static int cmp_board(const void *x, const void *y, void *ctx)
{
    const mc_hang_board *boards = ctx;
    const mc_board_page *a = boards[*(const size_t *)x].page, *b = boards[*(const size_t *)y].page;
    int c = strcmp(a->job, b->job);
    return c ? c : (a->world_rank > b->world_rank) - (a->world_rank < b->world_rank);
}

static const char *who(const mc_board_page *b, char *buf, size_t len)
{
    snprintf(buf, len, "rank %d%s%s", b->world_rank, b->job[0] ? " of " : "", b->job);
    return buf;
}

/* " (thread 4312 \"worker\")" when the rank runs threads of the program
 * besides its main one: its id, and its name where the program set one. */
static const char *which_thread(const mc_board_page *b, const mc_board_thread *s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (b->app_threads <= 0)
        return buf;
    char path[96], name[32] = "";
    snprintf(path, sizeof path, "/proc/%d/task/%d/comm", b->pid, s->tid);
    FILE *f = b->relayed ? NULL : fopen(path, "r");     /* a pid of another node means nothing here */
    if (f) {
        if (fgets(name, sizeof name, f))
            name[strcspn(name, "\n")] = '\0';
        fclose(f);
    }
    if (name[0])
        snprintf(buf, len, " (thread %d \"%s\")", s->tid, name);
    else
        snprintf(buf, len, " (thread %d)", s->tid);
    return buf;
}

void mc_hang_put(char *msg, size_t cap, size_t *len, const char *fmt, ...)
{
    if (*len >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(msg + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (w > 0)
        *len = *len + (size_t)w < cap ? *len + (size_t)w : cap;
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

void mc_hang_emit(const char *dir, mc_finding *f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-hang.jsonl", dir);
    FILE *part = fopen(path, "a");
    if (!part || mc_part_write_finding(part, f) != 0)
        fprintf(stderr, "mpicheck: cannot write the launcher's finding into %s\n", path);
    if (part)
        fclose(part);
    /* the terminal report prints it (live.c) */
    mc_finding_clear(f);
    mc_live_pass();
}

void mc_hang_report(const char *dir, const mc_hang_board *boards, size_t n, const mc_hang_rank *r,
                    const int *missing, size_t nmissing, double frozen_s, int color)
{
    mc_hang_state *st = mc_calloc(n, sizeof *st);
    char *chosen = mc_calloc(n, 1);
    size_t *order = mc_calloc(n, sizeof *order);
    mc_call_text *calls = mc_calloc(n * MC_BOARD_THREADS, sizeof *calls);
    int *ranks = mc_calloc(n, sizeof *ranks);
    char *msg = mc_malloc(8192);
    if (!st || !chosen || !order || !calls || !ranks || !msg)
        goto out;
    mc_hang_states(r, n, st);
    for (size_t i = 0; i < n; i++)
        chosen[i] = st[i] == MC_HANG_STUCK;
    uint32_t req = ask_stacks(boards, n, chosen, 0);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, cmp_board, (void *)boards);

    size_t len = 0, ncalls = 0, nranks = 0, cap = 8192;
    char name[96], site[256], thread[96];
    mc_hang_put(msg, cap, &len, "the job hung: for %.0f s every rank has been inside an MPI call or has ended, "
        "and none made progress:", frozen_s);
    const char *sep = " ";
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        const mc_board_page *b = boards[i].page;
        if (st[i] != MC_HANG_STUCK)
            continue;
        if (b->job[0] == '\0')
            ranks[nranks++] = b->world_rank;
        for (int t = 0; t < MC_BOARD_THREADS; t++) {
            if (!in_call(&b->threads[t]))
                continue;
            mc_call_text *ct = &calls[ncalls++];
            fill_call(ct, &boards[i], &b->threads[t], req, NULL);
            mc_call_site_text(ct, site, sizeof site);
            mc_hang_put(msg, cap, &len, "%s%s%s in %s%s%s%s", sep, who(b, name, sizeof name),
                which_thread(b, &b->threads[t], thread, sizeof thread), ct->call,
                site[0] ? " (" : "", site, site[0] ? ")" : "");
            sep = ", ";
        }
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        const mc_board_page *b = boards[i].page;
        if (st[i] != MC_HANG_ENDED)
            continue;
        const char *how = b->state == MC_BOARD_FINALIZED ? "returned from MPI_Finalize"
                        : b->state == MC_BOARD_EXITED ? "exited without calling MPI_Finalize"
                        : "is gone (killed, or crashed)";
        mc_hang_put(msg, cap, &len, "%s%s ended: it %s", sep, who(b, name, sizeof name), how);
    }
    if (nmissing) {
        mc_hang_put(msg, cap, &len, ". %s ", nmissing > 1 ? "Ranks" : "Rank");
        for (size_t m = 0; m < nmissing && m < 64; m++)
            mc_hang_put(msg, cap, &len, "%s%d", m ? ", " : "", missing[m]);
        mc_hang_put(msg, cap, &len, "%s never called MPI_Init (not started, computing before it, or not a "
            "program mpicheck can follow)", nmissing > 64 ? ", ..." : "");
    }
    /* What the engine's waits said (the wait board): whom each rank waited for. */
    int said = 0;
    for (size_t k = 0; k < n; k++) {
        const mc_board_page *b = boards[order[k]].page;
        if (st[order[k]] != MC_HANG_STUCK || !__atomic_load_n(&b->wait.waiting, __ATOMIC_ACQUIRE))
            continue;
        mc_hang_put(msg, cap, &len, "%s%s%s waits for ", said ? "; " : ". ", said ? "" : "As the checker saw it, ",
            who(b, name, sizeof name));
        said = 1;
        const mc_board_wait *wt = &b->wait;
        if (wt->all || wt->nranks <= 0)
            mc_hang_put(msg, cap, &len, "every rank of its communicator");
        for (int j = 0; !wt->all && j < wt->nranks && j < MC_BOARD_RANKS; j++)
            mc_hang_put(msg, cap, &len, "%srank %d", j ? ", " : "", wt->ranks[j]);
    }
    mc_hang_put(msg, cap, &len, ". Each rank's call and stack follow");
    qsort(ranks, nranks, sizeof *ranks, cmp_int);

    mc_finding f = {.cls = MC_CLASS_HANG, .severity = mc_class_default_severity(MC_CLASS_HANG),
                    .message = msg, .ranks = ranks, .nranks = nranks, .calls = calls, .ncalls = ncalls};
    mc_hang_emit(dir, &f);
    msg = NULL;
    calls = NULL;
    ranks = NULL;
out:
    free(st);
    free(chosen);
    free(order);
    free(calls);
    free(ranks);
    free(msg);
}

void mc_hang_report_lingering(const char *dir, const mc_hang_board *boards, size_t n, const char *lingering,
                              double still_s, int color)
{
    mc_call_text *calls = mc_calloc(n * MC_BOARD_THREADS, sizeof *calls);
    int *ranks = mc_calloc(n, sizeof *ranks);
    char *msg = mc_malloc(4096);
    if (!calls || !ranks || !msg) {
        free(calls);
        free(ranks);
        free(msg);
        return;
    }
    uint32_t req = ask_stacks(boards, n, lingering, 1);
    size_t len = 0, ncalls = 0, nranks = 0;
    char name[96];
    mc_hang_put(msg, 4096, &len, "the job did not end: every rank returned from MPI_Finalize, but");
    const char *sep = " ";
    for (size_t i = 0; i < n; i++) {
        const mc_board_page *b = boards[i].page;
        if (!lingering[i])
            continue;
        mc_hang_put(msg, 4096, &len, "%s%s", sep, who(b, name, sizeof name));
        sep = ", ";
        if (b->job[0] == '\0')
            ranks[nranks++] = b->world_rank;
        for (int t = 0; t < MC_BOARD_THREADS; t++)
            if (asked(&b->threads[t], 1))
                fill_call(&calls[ncalls++], &boards[i], &b->threads[t], req, "after MPI_Finalize");
    }
    mc_hang_put(msg, 4096, &len, " still ran %.0f s later without using the processor or reading or writing "
        "anything: a thread that waits forever, or an exit handler that hangs? The stacks of its threads "
        "that called MPI follow", still_s);
    qsort(ranks, nranks, sizeof *ranks, cmp_int);
    mc_finding f = {.cls = MC_CLASS_HANG, .severity = mc_class_default_severity(MC_CLASS_HANG),
                    .message = msg, .ranks = ranks, .nranks = nranks, .calls = calls, .ncalls = ncalls};
    mc_hang_emit(dir, &f);
}
