/*
 * finding_json.h - INTERNAL to src/report: conversion between the in-memory
 * finding / job header and their jansson form, shared by the part writer,
 * the merger and the JSON and SARIF writers so the shape of a finding is
 * defined in exactly one place (part.c). Not installed, not for checks.
 */
#ifndef MPICHECK_FINDING_JSON_H
#define MPICHECK_FINDING_JSON_H

#include <jansson.h>

#include "writers.h"

/* Dump flags shared by every writer. Jansson >= 2.8 always keeps insertion
 * order; the flag documents the intent and protects older versions. 15
 * significant digits print 0.1 as 0.1 instead of 0.10000000000000001. */
#define MC_JSON_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* A jansson string for s: null for NULL. Bytes that are not valid UTF-8 are
 * replaced by U+FFFD (jansson, and JSON, accept UTF-8 only). NULL only when
 * out of memory. */
json_t *mc_json_str(const char *s);

/* The finding object of docs/report-format.md (no "kind"): new reference,
 * NULL when out of memory. */
json_t *mc_finding_to_json(const mc_finding *f);
/* A process of the job report's "processes" list (its "process" line
 * without "kind"; "job" only outside the job mpicheck started). */
json_t *mc_process_to_json(const mc_process_host *h);
/* Appends the finding's members to obj in their documented order (used for
 * part lines, which put "kind" first). Returns 0, or -1 out of memory. */
int mc_finding_json_fill(json_t *obj, const mc_finding *f);

/* Reads a finding object (members other than those documented, such as
 * "kind", are ignored). out is overwritten; on failure it is left cleared.
 * ranks[] comes back ascending without duplicates. Returns 0 or -1. */
int mc_finding_from_json(const json_t *obj, mc_finding *out);

/* Appends "mpi", "nprocs", "mode", "timeout_s" to obj (unknown -> null:
 * nprocs < 0, timeout_s not a positive finite number). Returns 0 or -1. */
int mc_job_json_fill(json_t *obj, const mc_job_info *job);
/* Reads those members into out (overwritten; strings malloc'd; missing or
 * null nprocs -> -1, timeout_s -> 0). Returns 0, or -1 on a wrong type. */
int mc_job_from_json(const json_t *obj, mc_job_info *out);

/* Writes doc with flags plus a final newline to path ("-" = stdout).
 * Returns 0 or -1 with errno set. Defined in json_report.c. */
int mc_json_write_path(const char *path, const json_t *doc, size_t flags);

#endif
