/*
 * filter.h - which findings are reported: the checks switched off
 * (--checks) and the suppressions (--suppressions=FILE). Used by the
 * library (a rank prints no suppressed finding, and writes it marked) and
 * by the launcher (counts, exit code, JSON, SARIF, the terminal). No MPI.
 *
 * RATIONALE: every tool of this kind lets a known finding be silenced
 * (valgrind's suppressions, ThreadSanitizer's files, MUST's filter file).
 * A suppressed finding is still written down, marked, and counted in the
 * summary: a correctness gate must say what it was told to ignore.
 *
 * A suppressions file, close to valgrind's:
 *
 *   # a comment
 *   {
 *      datatype-made-by-the-library        <- the entry's name
 *      mpicheck:resource-leak               <- the class ('*' wildcards)
 *      call:MPI_Type_*                      <- optional: the first call's MPI function
 *      src:setup.c:12                       <- frames, innermost first: file:line
 *      fun:make_types                       <-   or a function name
 *      ...                                  <-   any number of frames
 *      fun:main
 *   }
 *
 * Frames match the first call's stack from its innermost frame on; the
 * stack may go on after the last pattern. Patterns use fnmatch(3)
 * wildcards; a src: file matches the frame's file by its whole path or by
 * its base name.
 */
#ifndef MPICHECK_FILTER_H
#define MPICHECK_FILTER_H

#include <stddef.h>
#include "finding.h"

typedef struct mc_filter mc_filter;

/* An empty filter: every check on, no suppression. NULL when out of memory. */
mc_filter *mc_filter_new(void);
void mc_filter_free(mc_filter *f);

/* --checks: a comma-separated list applied left to right, starting from
 * every check on: "all", "none", a class ("deadlock") to switch it on,
 * "-class" to switch it off. 0, or -1 with a message listing the classes. */
int mc_filter_set_checks(mc_filter *f, const char *spec, char *err, size_t errlen);
/* Whether findings of cls are reported. */
int mc_filter_check_on(const mc_filter *f, mc_class cls);
/* "resource-leak, lost-message": the checks switched off, "" for none. */
void mc_filter_checks_off_text(const mc_filter *f, char *buf, size_t len);

/* Reads suppression files: one path, or several separated by ':'. 0, or
 * -1 with "FILE:LINE: what is wrong" (or why the file cannot be read). */
int mc_filter_load(mc_filter *f, const char *paths, char *err, size_t errlen);
/* The name of the first entry that matches finding x, or NULL. */
const char *mc_filter_match(const mc_filter *f, const mc_finding *x);

/* A suppression entry that matches exactly x (its class, its first
 * call's function, the file:line of its innermost frame and the function
 * names out to main), malloc'd; NULL when out of memory. */
char *mc_filter_entry_for(const mc_finding *x);

#endif
