/*
 * vanished.c - after a failed job, the ranks that ended with no word of
 * their own (vanished.h).
 *
 * RATIONALE: a rank reports its own early end (core/rank_exit.c: its exit
 * handler, its handler of fatal signals), but some ends run none of its
 * code: SIGKILL (the kernel's out-of-memory killer, a batch system's
 * limit, a person), or a fatal signal after the program or a library
 * replaced the checker's handler (libgfortran's backtrace handler, when a
 * coarray program's runtime calls MPI_Init before installing it). Then
 * the job failed, MPI's launcher said so on its own, and the report said
 * "no errors found". The boards outlive their processes: one whose board
 * says it still ran, whose process is gone, and whose exit handler never
 * wrote its status ended so. The launcher ends the others when one does,
 * so they vanish alike; which came first it cannot tell, and says so.
 */
#define _GNU_SOURCE
#include "vanished.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_layout.h"
#include "finding.h"
#include "hang.h"
#include "hang_report.h"
#include "hang_rule.h"
#include "pid_view.h"
#include "skipped.h"
#include "writers.h"

#define MAX_BOARDS 4096
#define MSG_CAP 4096

/* Whether the ranks' own findings already say why the job failed (an
 * error: a crash they reported, a deadlock the checker aborted for, a
 * hang the watch ended the job for). */
static int findings_explain(const char *dir)
{
    mc_report_doc doc;
    memset(&doc, 0, sizeof doc);
    int errors = 0, warnings = 0;
    if (mc_report_merge_dir(dir, &doc) != 0) {
        mc_report_doc_clear(&doc);
        return 1;   /* cannot tell: say nothing more */
    }
    mc_report_count(&doc, &errors, &warnings);
    mc_report_doc_clear(&doc);
    return errors > 0;
}

static int in_abort(const mc_hang_board *hb)
{
    for (int t = 0; t < MC_BOARD_THREADS; t++) {
        const mc_board_thread *s = &hb->page->threads[t];
        const char *name = mc_hang_fn_name(hb->page, hb->maplen, __atomic_load_n(&s->fn, __ATOMIC_RELAXED));
        if (__atomic_load_n(&s->used, __ATOMIC_ACQUIRE) && name && strcmp(name, "MPI_Abort") == 0)
            return 1;
    }
    return 0;
}

/* The MPI call the rank was in when it vanished (that of its first
 * thread inside one, in its Fortran spelling where the program used
 * that), or NULL: outside MPI. */
static char *call_of(const mc_hang_board *hb)
{
    const mc_board_page *b = hb->page;
    for (int t = 0; t < MC_BOARD_THREADS; t++) {
        const mc_board_thread *s = &b->threads[t];
        const char *name = mc_hang_fn_name(b, hb->maplen, __atomic_load_n(&s->fn, __ATOMIC_RELAXED));
        if (!__atomic_load_n(&s->used, __ATOMIC_ACQUIRE) || !name)
            continue;
        mc_call_text ct = {.call = mc_strdup(name)};
        if (ct.call && s->fortran)
            mc_call_text_fortran_name(&ct);
        return ct.call;
    }
    return b->state == MC_BOARD_INIT ? mc_strdup("MPI_Init") : NULL;
}

/* The vanished boards in the order of the report: by job, then rank. */
static int by_job_and_rank(const void *x, const void *y)
{
    const mc_board_page *a = (*(const mc_hang_board *const *)x)->page;
    const mc_board_page *b = (*(const mc_hang_board *const *)y)->page;
    int c = strcmp(a->job, b->job);
    return c ? c : (a->world_rank > b->world_rank) - (a->world_rank < b->world_rank);
}

static void report(const char *dir, const mc_hang_board *boards, const char *vanished, size_t n, size_t count,
                   int job_code)
{
    const mc_hang_board **v = mc_calloc(count, sizeof *v);
    mc_call_text *calls = mc_calloc(count, sizeof *calls);
    int *ranks = mc_calloc(count, sizeof *ranks);
    char *msg = mc_malloc(MSG_CAP);
    if (!v || !calls || !ranks || !msg) {
        free(v);
        free(calls);
        free(ranks);
        free(msg);
        return;
    }
    size_t nv = 0, ncalls = 0, nranks = 0, len = 0, cap = MSG_CAP;
    for (size_t i = 0; i < n; i++)
        if (vanished[i])
            v[nv++] = &boards[i];
    qsort(v, nv, sizeof *v, by_job_and_rank);
    for (size_t k = 0; k < nv; k++) {
        const mc_board_page *b = v[k]->page;
        const char *sep = k == 0 ? (nv > 1 ? "ranks " : "rank ") : k + 1 == nv ? " and " : ", ";
        mc_hang_put(msg, cap, &len, "%s%d%s%s", sep, b->world_rank, b->job[0] ? " of " : "", b->job);
        if (b->job[0] == '\0')
            ranks[nranks++] = b->world_rank;
    }
    mc_hang_put(msg, cap, &len, " ended before MPI_Finalize with no word of %s own, and the job failed "
        "(exit status %d): %s killed by a signal no handler can catch (SIGKILL: the kernel's "
        "out-of-memory killer, a batch system's limit, a person), or by a fatal signal after the program "
        "or a library replaced the checker's handler (a Fortran runtime's backtrace handler, for one)",
        nv > 1 ? "their" : "its", job_code, nv > 1 ? "one was" : "it was");
    if (nv > 1)
        mc_hang_put(msg, cap, &len, "; MPI's launcher then ended the others, and which ended first the "
                    "checker cannot tell");
    mc_hang_put(msg, cap, &len, ". Where %s: ", nv > 1 ? "each was" : "it was");
    for (size_t k = 0; k < nv; k++) {
        const mc_board_page *b = v[k]->page;
        char *call = call_of(v[k]);
        mc_hang_put(msg, cap, &len, "%srank %d%s%s %s%s", k ? ", " : "", b->world_rank, b->job[0] ? " of " : "",
                    b->job, call ? "in " : "outside MPI (in the program's own code)", call ? call : "");
        if (!call)
            continue;
        mc_call_text *ct = &calls[ncalls++];
        ct->call = call;
        ct->rank = b->world_rank;
        snprintf(ct->job, sizeof ct->job, "%s", b->job);
    }
    free(v);
    mc_finding f = {.cls = MC_CLASS_RANK_EXIT, .severity = mc_class_default_severity(MC_CLASS_RANK_EXIT),
                    .message = msg, .ranks = ranks, .nranks = nranks, .calls = calls, .ncalls = ncalls};
    mc_hang_emit(dir, &f);
}

void mc_vanished_report(const char *dir, int job_code)
{
    mc_hang_board *boards = mc_calloc(MAX_BOARDS, sizeof *boards);
    mc_end_board *ends = mc_calloc(MAX_BOARDS, sizeof *ends);
    char *vanished = mc_calloc(MAX_BOARDS, 1);
    DIR *d = boards && ends && vanished ? opendir(dir) : NULL;
    size_t n = 0;
    char view[MC_PID_VIEW_LEN];
    mc_pid_view(view, sizeof view);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < MAX_BOARDS) {
        if (strncmp(e->d_name, "wait.", 5) != 0 || mc_hang_board_map(dir, e->d_name, 0, &boards[n]) != 0)
            continue;
        const mc_board_page *b = boards[n].page;
        mc_end_board *eb = &ends[n];
        eb->board_state = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
        eb->known = !b->relayed && view[0] && strncmp(b->pid_view, view, sizeof b->pid_view) == 0;
        eb->alive = eb->known && mc_hang_pid_alive(b->pid);
        eb->in_abort = in_abort(&boards[n]);
        eb->exit_known = __atomic_load_n(&b->exit_known, __ATOMIC_ACQUIRE);
        eb->exit_status = b->exit_status;
        n++;
    }
    if (d)
        closedir(d);
    size_t count = n ? mc_hang_vanished(ends, n, vanished) : 0;
    if (count && !findings_explain(dir))
        report(dir, boards, vanished, n, count, job_code);
    for (size_t i = 0; i < n; i++)
        mc_hang_board_unmap(&boards[i]);
    free(boards);
    free(ends);
    free(vanished);
}
