/*
 * writers.h - serialising findings: the per-rank part files, the merged job
 * report (JSON, schema in docs/report-format.md), SARIF 2.1.0 and the text
 * block printed on stderr. No MPI here: used by the library and the launcher.
 *
 * Per-rank parts: a directory holds one file per rank, "rank-<N>.jsonl",
 * each line one complete JSON object, flushed as soon as it is written so a
 * rank that crashes later loses nothing. Two kinds of lines:
 *   {"kind":"finding", ...the finding object of docs/report-format.md...}
 *   {"kind":"job","rank":0,"mpi":{"flavor":"openmpi","version":"4.1.4"},
 *    "nprocs":4,"mode":"strict","timeout_s":10.0}   (written at MPI_Init)
 *   {"kind":"process","rank":3,"job":"","host":"node2","pid":4711,...} (every rank, MPI_Init)
 *   {"kind":"done", ...}                           (MPI_Finalize)
 * Unknown kinds are ignored by readers (forward compatibility).
 */
#ifndef MPICHECK_WRITERS_H
#define MPICHECK_WRITERS_H

#include <stdio.h>
#include "finding.h"

/* One kind of check the ranks could not make, summed over the job. */
typedef struct {
    char *check;    /* "unchecked-communicator" (skipped.h) */
    char *what;     /* what it means, for people */
    long count;
} mc_skip_total;

/* Where one process ran (its "process" line). */
typedef struct {
    char job[48];       /* mc_call_text.job */
    int rank;
    char host[64];
    long pid;
    int node_id;        /* -1: unknown */
    int local_rank;     /* -1: unknown */
    char source[16];    /* whence the place: "pmix", "environment" */
} mc_process_host;

/* What the job header of the merged report says. Strings may be NULL. */
typedef struct {
    char *mpi_flavor;   /* "openmpi" | "mpich" | NULL when unknown */
    char *mpi_version;  /* library version string, e.g. "4.1.4" */
    int nprocs;         /* -1 when unknown (no rank reached MPI_Init) */
    char *mode;         /* "strict" | "fast" */
    double timeout_s;
} mc_job_info;

/* The merged report: job header plus findings, identical findings from
 * several ranks folded into one (ranks[] and calls[] joined). */
typedef struct {
    mc_job_info job;
    mc_finding *findings;
    size_t nfindings;
    int saw_job_line;   /* 1 when some rank wrote a "job" line (reached MPI_Init) */
    size_t nparts;      /* part files read */
    size_t ndone;       /* "done" lines: processes that ended their run (MPI_Finalize) */
    long repeats;       /* findings made again at one check and call site, not written again */
    mc_skip_total *skipped;     /* checks not made, summed over the ranks (skipped.h) */
    size_t nskipped;
    const char *checks_off;     /* "resource-leak, lost-message": switched off (--checks); not owned */
    mc_process_host *hosts;     /* where each process ran ("process" lines), in the order read */
    size_t nhosts;
    int host_names;             /* distinct host names among them */
} mc_report_doc;

/* Names the host of every call of doc's findings from its process line,
 * when the job ran on more than one host (on one, reports stay as they
 * were: the host says nothing). */
void mc_report_doc_name_hosts(mc_report_doc *doc);
/* The same for one finding (the launcher's terminal, as it prints it). */
void mc_report_finding_name_hosts(const mc_report_doc *doc, mc_finding *f);

/* Appends one finding as a "finding" line to an open part file and flushes.
 * Returns 0 on success, -1 on a write error. */
int mc_part_write_finding(FILE *part, const mc_finding *f);

/* Appends the "done" line that ends a process's run: with the counts of
 * the checks it could not make (skipped.h), those that are not zero, by
 * name only (the line stays short: end_of_run.c reads it back). */
int mc_part_write_done(FILE *part, unsigned long repeats);

/* "mpicheck: not checked: 2 unchecked-communicator (what it means)" for
 * the summary on stderr, into buf; empty when nothing was skipped. */
void mc_report_skipped_line(const mc_report_doc *doc, char *buf, size_t len);

/* Appends the "job" line (written by world rank 0 at MPI_Init). */
int mc_part_write_job(FILE *part, const mc_job_info *job);

/* Appends the "process" line every rank writes at MPI_Init:
 *   {"kind":"process","rank":3,"job":"","host":"node2","pid":4711,
 *    "node_id":1,"local_rank":1,"layout":"pmix"} */
int mc_part_write_process(FILE *part, const mc_process_host *h);

/* Reads every rank-*.jsonl file in dir and merges them into doc (which the
 * caller zero-initialises). Malformed lines are skipped with a message on
 * stderr naming the file and line; they never abort the merge.
 * Returns 0, or -1 when dir cannot be read (errno set). */
int mc_report_merge_dir(const char *dir, mc_report_doc *doc);

/* Writes the job report (docs/report-format.md) to path ("-" = stdout).
 * tool_version is the mpicheck version. Returns 0 or -1 (errno set). */
int mc_report_write_json(const char *path, const mc_report_doc *doc,
                         const char *tool_version);

/* Writes a SARIF 2.1.0 log of all findings to path. Returns 0 or -1. */
int mc_report_write_sarif(const char *path, const mc_report_doc *doc,
                          const char *tool_version);

/* Writes doc as one self-contained HTML page to path (html.c); graph_svg
 * is a deadlock's wait-for graph as SVG, or NULL. Returns 0 or -1. */
int mc_report_write_html(const char *path, const mc_report_doc *doc, const char *tool_version,
                         const char *graph_svg);

/* Counts of doc's findings by severity, the suppressed ones aside. */
void mc_report_count(const mc_report_doc *doc, int *errors, int *warnings);
/* Findings a suppression matched (mc_finding.suppressed). */
int mc_report_suppressed(const mc_report_doc *doc);

/* Frees what doc owns. */
void mc_report_doc_clear(mc_report_doc *doc);

/* The file the launcher puts in the part directory while it prints the
 * findings itself (launcher/live.c): a rank that sees it there leaves the
 * terminal to the launcher (report.c). */
#define MC_LIVE_MARKER "terminal"

/* 1 and the finding in out when the part line is a finding; 0 otherwise. */
int mc_part_line_finding(const char *line, size_t len, mc_finding *out);

/* An incremental merge into doc, one part line at a time (the launcher's
 * terminal report reads the parts while the job runs). */
typedef struct mc_merger mc_merger;
mc_merger *mc_merger_new(mc_report_doc *doc);
/* Merges one line. *found: the index in doc->findings of the finding the
 * line made or folded into, (size_t)-1 for a line that is no finding.
 * Returns 0, -1 for a malformed line, -2 when out of memory. */
int mc_merger_line(mc_merger *m, const char *line, size_t len, size_t *found);
void mc_merger_free(mc_merger *m);

/* "0-7,9" for ranks {0..7, 9} (ascending, no duplicates), into buf (cut
 * with "..." when it does not fit). Returns buf. */
char *mc_ranks_text(const int *ranks, size_t n, char *buf, size_t len);

/* Renders the human-readable block for one finding:
 *   mpicheck: ERROR invalid-argument
 *   mpicheck:   <message>
 *   mpicheck:   rank 1: MPI_Send(buf=0x1, count=-1, ...)
 *   mpicheck:     at main (prog.c:12)
 * color: 1 to add ANSI colors. Returns a malloc'd string (caller frees). */
char *mc_finding_format_text(const mc_finding *f, int color);

/* The same with choices (the launcher's terminal report). */
typedef struct {
    int color;
    size_t ncalls;          /* calls shown: the first ncalls */
    const char *extra;      /* lines after the message ("reported by ranks 0-15"), or NULL */
    int source;             /* the source line under each call's call site, when readable */
} mc_text_options;
char *mc_finding_format(const mc_finding *f, const mc_text_options *o);

#endif
