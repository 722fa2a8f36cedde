/*
 * finding.h - the one in-memory shape of a finding, shared by the library
 * (which creates findings inside MPI ranks) and by the launcher (which reads
 * the per-rank parts back, merges them and writes the job's JSON and SARIF).
 *
 * RATIONALE: every check reports through mc_report() (src/report/report.h),
 * which fills one of these; the text, JSON and SARIF writers only ever see
 * this struct, so a new check never touches a writer.
 *
 * Nothing here depends on MPI, so the writers are unit-tested without MPI.
 */
#ifndef MPICHECK_FINDING_H
#define MPICHECK_FINDING_H

#include <stddef.h>
#include <stdint.h>

/* The fixed vocabulary of finding classes (docs/checks.md has one entry each).
 * Add a class only with a doc entry and paired tests. */
typedef enum {
    MC_CLASS_DEADLOCK = 0,
    MC_CLASS_POTENTIAL_DEADLOCK,
    MC_CLASS_COLLECTIVE_MISMATCH,
    MC_CLASS_TYPE_MISMATCH,
    MC_CLASS_INVALID_ARGUMENT,
    MC_CLASS_REQUEST_FREE_ACTIVE,
    MC_CLASS_REQUEST_LEAK,
    MC_CLASS_RESOURCE_LEAK,
    MC_CLASS_LOST_MESSAGE,
    MC_CLASS_BUFFER_MODIFIED,
    MC_CLASS_INTERCOMM_MISMATCH,
    MC_CLASS_INTERCOMM_NONUNIFORM,
    MC_CLASS_CALL_ORDER,
    MC_CLASS_RANK_EXIT,
    MC_CLASS_BUFFER_OVERLAP,
    MC_CLASS_MPI_ERROR,
    MC_CLASS_HANG,
    MC_CLASS_COUNT_ /* number of classes; not a class */
} mc_class;

typedef enum { MC_SEV_ERROR = 0, MC_SEV_WARNING = 1 } mc_severity;

/* "deadlock", "invalid-argument", ...; NULL for an out-of-range value. */
const char *mc_class_name(mc_class cls);
/* Inverse of mc_class_name; returns -1 for an unknown name. */
int mc_class_from_name(const char *name);
/* "error" / "warning". */
const char *mc_severity_name(mc_severity sev);
/* The severity of the class's findings (warnings: leaks, lost messages,
 * potential deadlocks; everything else is an error). */
mc_severity mc_class_default_severity(mc_class cls);
/* One-line description of the class, used for SARIF rules and --help. */
const char *mc_class_description(mc_class cls);

/* One stack frame. Any string may be NULL when unknown (no debug info). */
typedef struct {
    char *function;
    char *file;     /* source file as recorded in DWARF (may be relative) */
    int line;       /* 0 when unknown */
    char *module;   /* shared object or executable path */
    uintptr_t pc;
    uintptr_t offset;   /* pc as an address of the module's own file (what `addr2line -e
                         * module` takes; the same on every rank, where pc differs with
                         * the load address); 0 when unknown */
} mc_frame;

/* One named argument, already rendered as text ("MPI_COMM_WORLD", "-1"). */
typedef struct {
    char *name;
    char *value;
} mc_arg_text;

/* One MPI call taking part in a finding, on one rank. */
typedef struct {
    int rank;           /* rank in MPI_COMM_WORLD; -1 when unknown */
    char *call;         /* "MPI_Send" */
    mc_arg_text *args;
    size_t nargs;
    mc_frame *stack;    /* innermost (the application's call site) first */
    size_t nframes;
    char job[48];       /* whose MPI_COMM_WORLD: "" the job mpicheck started; "spawn 0.1" the
                         * processes started by world rank 0's first MPI_Comm_spawn (inter/spawn.c) */
    int tid;            /* the calling thread's id (gettid), when its rank runs several threads
                         * of the program; 0: not named */
    char thread_name[16];   /* its name (pthread_setname_np), "" when unset */
    char host[64];      /* its host, in a job that ran on several; "" otherwise */
} mc_call_text;

typedef struct {
    mc_class cls;
    mc_severity severity;
    char *message;
    int *ranks;         /* world ranks involved, ascending, no duplicates */
    size_t nranks;
    mc_call_text *calls;
    size_t ncalls;
    char *cause;        /* the likely cause in one sentence (a deadlock's near miss), or NULL */
    char *suppressed;   /* the name of the suppression that matched it (filter.h), or NULL */
} mc_finding;

/* Frees everything a finding owns (strings, arrays), not the struct itself. */
void mc_finding_clear(mc_finding *f);

/* Where call c was made, for a one-line mention ("ring.c:12") and a SARIF
 * location: its innermost frame with a source file, looking no further out
 * than the program's entry (from __libc_start_main and _start outward the
 * frames are the C runtime's: naming its source as the call site of a
 * program built without debug information misled). NULL when no frame in
 * between has a source file. */
const mc_frame *mc_call_site(const mc_call_text *c);
/* Renames c's call as the Fortran bindings spell it (MPI_Send -> MPI_SEND):
 * for a call the program made from Fortran. */
void mc_call_text_fortran_name(mc_call_text *c);
/* The same as "file:line" with the file's base name, into buf; "" when
 * mc_call_site is NULL. Returns buf. */
char *mc_call_site_text(const mc_call_text *c, char *buf, size_t len);

#endif
