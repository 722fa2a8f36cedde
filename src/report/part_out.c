/*
 * part_out.c - this rank's files in the launcher's part directory: its part
 * file (findings, the job, process and done lines) and a deadlock's graph.
 * On a node that does not see the directory they go to the launcher over
 * TCP instead (relay.c), with the same bytes.
 *
 * RATIONALE: one place decides where a rank's report goes, so a check, the
 * crash handler and the end of the run never care whether the job spans
 * nodes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report_internal.h"
#include "relay.h"
#include "skipped.h"
#include "config.h"
#include "writers.h"

static pthread_mutex_t part_lock = PTHREAD_MUTEX_INITIALIZER;
static mc_report_settings run = {.world_rank = -1, .world_size = -1};
static char *part_dir;              /* run.part_dir, copied; NULL after a failed open */
static FILE *part;                  /* this rank's part file, opened on first use */

void mc_part_out_configure(const mc_report_settings *s)
{
    pthread_mutex_lock(&part_lock);
    int same_dir = (!s->part_dir && !run.part_dir)
                   || (s->part_dir && run.part_dir && strcmp(s->part_dir, run.part_dir) == 0);
    run = *s;
    if (!same_dir) {
        free(part_dir);
        part_dir = s->part_dir ? mc_strdup(s->part_dir) : NULL;
    }
    run.part_dir = part_dir;
    mc_relay_setup(s->collector, part_dir);
    pthread_mutex_unlock(&part_lock);
}

/* The part file of this rank, opened on first use (even before MPI_Init,
 * when the rank is known from the launcher's environment). */
static FILE *part_file(void)
{
    if (part || !part_dir)
        return part;
    char name[128], path[4096];
    if (run.world_rank >= 0 && run.spawned)
        /* Own file per process: spawned processes' world ranks repeat their
         * parents', and two writers appending long lines to one file could
         * interleave them. */
        snprintf(name, sizeof name, "rank-%d.spawn%ld.jsonl", run.world_rank, (long)getpid());
    else if (run.world_rank >= 0)
        snprintf(name, sizeof name, "rank-%d.jsonl", run.world_rank);
    else
        snprintf(name, sizeof name, "rank-pid%ld.jsonl", (long)getpid());
    if (mc_relay_remote()) {
        part = mc_relay_stream("append", name);
        if (!part) {
            fprintf(stderr, "mpicheck: this node does not see the launcher's directory %s and the launcher "
                    "could not be reached over TCP: this rank's findings are printed here only\n", part_dir);
            free(part_dir);
            part_dir = NULL;
            run.part_dir = NULL;
        }
        return part;
    }
    snprintf(path, sizeof path, "%s/%s", part_dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "mpicheck: cannot write the report part %s: %s\n", path, strerror(errno));
        free(part_dir);
        part_dir = NULL;
        run.part_dir = NULL;
        return NULL;
    }
    part = fdopen(fd, "a");
    return part;
}

int mc_part_out_finding(const mc_finding *f)
{
    pthread_mutex_lock(&part_lock);
    FILE *p = part_file();
    int stored = p && mc_part_write_finding(p, f) == 0;
    if (p && !stored)
        fprintf(stderr, "mpicheck: writing the report part failed: %s\n", strerror(errno));
    pthread_mutex_unlock(&part_lock);
    return stored;
}

/* Whether the launcher's terminal report reads this rank's part directory:
 * its marker is there, or it said so when this rank's relay connected (a
 * rank that reaches neither prints its own findings). Asked once. */
int mc_part_out_launcher_prints(void)
{
    static int known = -1;
    if (mc_relay_remote())
        return mc_relay_terminal();
    if (known < 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/" MC_LIVE_MARKER, part_dir ? part_dir : "");
        known = part_dir && access(path, F_OK) == 0;
    }
    return known;
}

void mc_report_flush(void)
{
    /* No lock: called from a signal handler too (rank_exit.c), where the
     * lock may be held by the interrupted code. */
    if (part)
        fflush(part);
}

void mc_report_done_line(void)
{
    pthread_mutex_lock(&part_lock);
    FILE *p = part_file();
    if (p)
        mc_part_write_done(p, mc_report_repeats());
    pthread_mutex_unlock(&part_lock);
}

void mc_report_process_line(const mc_process_place *place)
{
    mc_process_host h = {.rank = run.world_rank, .pid = (long)getpid(), .node_id = place->node_id,
                         .local_rank = place->local_rank};
    snprintf(h.job, sizeof h.job, "%s", run.job ? run.job : "");
    snprintf(h.host, sizeof h.host, "%s", place->host);
    snprintf(h.source, sizeof h.source, "%s", place->source);
    pthread_mutex_lock(&part_lock);
    FILE *p = part_file();
    if (p)
        mc_part_write_process(p, &h);
    pthread_mutex_unlock(&part_lock);
}

void mc_report_job_line(void)
{
    static int written;
    if (written++)
        return;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int major = 0, minor = 0;
    mc_job_info job = {0};
#if defined(OPEN_MPI)
    job.mpi_flavor = "openmpi";
    snprintf(version, sizeof version, "%d.%d.%d", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
             OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
    job.mpi_flavor = "mpich";
    snprintf(version, sizeof version, "%s", MPICH_VERSION);
#else
    PMPI_Get_version(&major, &minor);
    snprintf(version, sizeof version, "MPI %d.%d", major, minor);
#endif
    (void)major; (void)minor;
    job.mpi_version = version;
    pthread_mutex_lock(&part_lock);
    job.nprocs = run.world_size;
    job.mode = (char *)mc_mode_name(run.mode);
    job.timeout_s = run.timeout_s;
    FILE *p = part_file();
    if (p)
        mc_part_write_job(p, &job);
    pthread_mutex_unlock(&part_lock);
}

FILE *mc_report_part_open(const char *name)
{
    pthread_mutex_lock(&part_lock);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", part_dir ? part_dir : "", name);
    FILE *f = !part_dir ? NULL : mc_relay_remote() ? mc_relay_stream("write", name) : fopen(path, "we");
    pthread_mutex_unlock(&part_lock);
    return f;
}

void mc_report_close(void)
{
    pthread_mutex_lock(&part_lock);
    if (part)
        fclose(part);
    part = NULL;
    pthread_mutex_unlock(&part_lock);
}
