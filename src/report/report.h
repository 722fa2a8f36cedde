/*
 * report.h - the one way a check reports a finding from inside a rank.
 *
 * Each function builds an mc_finding (finding.h) for this rank: the class,
 * its severity, the message, this rank's call with every argument rendered,
 * and the application's call stack; then prints the text block on stderr and
 * appends the finding to this rank's part file (flushed at once, so a crash
 * later loses nothing). Severity is the class's own (report.c keeps the table).
 */
#ifndef MPICHECK_REPORT_H
#define MPICHECK_REPORT_H

#include <stdio.h>
#include "call.h"
#include "finding.h"

/* What report needs to know of the run. Core hands it down (lifecycle.c)
 * at load and again whenever part of it changes (the rank once MPI_Init
 * knows it, a part directory made after that): report reads no process
 * state of its own. */
typedef struct {
    int world_rank, world_size;     /* -1: not known yet */
    int spawned;                    /* a process MPI_Comm_spawn started: world ranks repeat */
    const char *job;                /* its job's label (mc_call_text.job); "" in the first job */
    const char *part_dir;           /* where this rank's part file goes; NULL: stderr only */
    int color;                      /* color the text on stderr */
    int mode;                       /* MC_MODE_* of the job line */
    double timeout_s;
    int error_exitcode;             /* MPI_Abort's code after a finding that ends the job */
    const char *checks;             /* --checks, NULL: all (filter.h) */
    const char *suppressions;       /* suppression files, ':'-separated, or NULL */
    const char *collector;          /* the launcher's collector (relay_wire.h), or NULL */
} mc_report_settings;
void mc_report_configure(const mc_report_settings *s);
/* Findings this rank reported, by severity. */
void mc_report_counts(int *errors, int *warnings);
/* Flushes this rank's part file (before the process may die). */
void mc_report_flush(void);
/* 1 once mc_report_abort_job has run on this rank. */
int mc_report_aborting(void);

/* The class of the last finding this thread reported about call c while c
 * is in flight (its message, cut, into message), or -1: none. */
int mc_report_found_in(const mc_call *c, char *message, size_t len);

/* Client requests (include/mpicheck.h, core/client.c): while the off
 * depth is above 0 this process's findings are written down suppressed;
 * a phase name (NULL or "": none) is added to the message of each finding. */
void mc_report_client_off(int delta);
void mc_report_phase(const char *name);

/* A finding about call c on this rank. fmt is the message. */
void mc_report_call(mc_class cls, const mc_call *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* invalid-argument about argument argi of c: the message starts with
 * "argument <argi+1> (<name>) " followed by fmt. */
void mc_report_arg(const mc_call *c, int argi, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Same, and the object's creating call is shown as a second call. */
void mc_report_arg_origin(const mc_call *c, int argi, const mc_origin *origin,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A finding of class cls about call c, with a call made earlier (origin:
 * where the request it uses was started, ...) shown as a second call. */
void mc_report_call_origin(mc_class cls, const mc_call *c, const mc_origin *origin,
                           const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A finding whose only call is where an object was created (leaks). */
void mc_report_origin(mc_class cls, const mc_origin *origin, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A finding that involves other ranks' calls: this rank's call c (with its
 * stack) when c is given, then the others (ownership of their contents passes
 * to the report). Without c, (fn, caller) only key the once-per-call-site
 * filter. The finding's ranks are this rank and the others' ranks. */
void mc_report_with(mc_class cls, const mc_call *c, int fn, const void *caller,
                    mc_call_text *others, size_t nothers, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* The same with the finding's likely cause (its JSON "cause"; NULL or "": none). */
void mc_report_with_cause(mc_class cls, const mc_call *c, int fn, const void *caller,
                          mc_call_text *others, size_t nothers, const char *cause, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* Ends the job after a finding that would otherwise hang it (deadlock,
 * collective mismatch): flushes this rank's part file, says why on stderr,
 * gives the launcher's output forwarding a moment to pass on what this rank
 * printed, then MPI_Abort with the error exit code. */
void mc_report_abort_job(const char *why) __attribute__((noreturn));

/* A call made earlier is kept one way, as an mc_origin (util/call.h): the
 * function, its argument values and where it was called from; with
 * full_stack the whole call stack, else only the caller's address (cheap,
 * for hot paths). mc_call_text (finding.h) is only what a report shows of
 * a call, rendered from a live call or an origin. */
void mc_origin_capture(mc_origin *o, const mc_call *c, int full_stack);
void mc_report_fill_origin(mc_call_text *ct, const mc_origin *o);

/* Fills ct with call c on this rank (arguments rendered, stack resolved). */
void mc_report_fill_call(mc_call_text *ct, const mc_call *c);
/* The same without the stack (no DWARF lookup): for a rank that sends its
 * call to another, which resolves the sites in its own copy (mc_site_*). */
void mc_report_fill_call_args(mc_call_text *ct, const mc_call *c);
/* The same for a call made earlier: function fn with arguments vals (in its
 * parameter order) at the return addresses pcs. */
void mc_report_fill_call_vals(mc_call_text *ct, int fn, const mc_value *vals, int nvals,
                              const uintptr_t *pcs, size_t npcs);
/* How many repeated findings were not reported again on this rank. */
unsigned long mc_report_repeats(void);

/* Writes the "job" line into this rank's part file (world rank 0 at init). */
void mc_report_job_line(void);

/* Appends {"kind":"done"}: this rank's part is complete (hand-preloaded
 * runs, where rank 0 waits for every part before merging). */
void mc_report_done_line(void);

/* Where a process runs (core/layout.c). */
typedef struct {
    char host[64];          /* as the launcher names it (PMIx), else gethostname */
    int node_id;            /* the node's number in the job, -1: unknown */
    int local_rank;         /* the rank among the job's processes on the node, -1: unknown */
    char source[16];        /* "pmix" or "environment" */
} mc_process_place;
/* Writes the "process" line (its rank, job, pid and place) into this
 * process's part: every rank at MPI_Init, so that a report can name the
 * host of any rank it mentions and give the job's layout. */
void mc_report_process_line(const mc_process_place *place);

/* Another file of the part directory (a deadlock's graph), opened for
 * writing from its start, on this node or relayed to the launcher's; NULL
 * without a part directory. */
FILE *mc_report_part_open(const char *name);

/* Closes the part file (at exit). */
void mc_report_close(void);

/* Nonzero while this thread renders an argument for a report: MPI may
 * raise an error on a handle the program passed (PMPI_Type_get_name of an
 * invalid datatype), which the checker's error handler must leave to the
 * caller instead of reporting it and ending the job in the middle of the
 * report it belongs to (checks/mpi_errors.c). */
extern __thread int mc_rendering;

/* Renders argument i of a call as text for reports: handle names
 * (MPI_COMM_WORLD, MPI_INT, comm#2), wildcards (MPI_ANY_SOURCE), pointers.
 * Returns a malloc'd string. */
char *mc_render_value(const mc_param_desc *pd, const mc_value *v);
/* The same for a value of a call made earlier, whose handle named the
 * object of this id then (mc_origin.ids; 0: render as it is now). */
char *mc_render_value_as_made(const mc_param_desc *pd, const mc_value *v, uint32_t id);

/* The names of handles the program made ("comm#3 (size 2)"), which only the
 * object table knows: tracking sits above report, so core hands its namer
 * over at load. Each returns a malloc'd string, or NULL for a handle the
 * table does not hold. Unset: handles are shown by value. */
typedef struct {
    char *(*comm)(MPI_Comm comm);
    char *(*datatype)(MPI_Datatype type);
    char *(*op)(MPI_Op op);
    /* The handle of ctype (MC_CT_COMM, _DATATYPE, _OP) with bits, which
     * named the object of this id when a call was made: NULL if it still
     * does (named as any handle), else a name that says it was freed. */
    char *(*as_made)(int ctype, uint64_t bits, uint32_t id);
} mc_handle_namer;
void mc_render_set_namer(const mc_handle_namer *namer);
/* Whether MPI may be asked now (between MPI_Init and MPI_Finalize, or in an
 * open session): predefined handles are named by MPI only then. Unset: never. */
void mc_render_set_mpi_up(int (*mpi_up)(void));

#endif
