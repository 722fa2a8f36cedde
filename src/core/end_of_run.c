/*
 * end_of_run.c - the checks and report work at the end of a run: leaks,
 * the count of repeated findings, and (preloaded by hand) rank 0 merging the
 * job report.
 *
 * RATIONALE: user code may still free objects inside MPI_Finalize: attribute
 * delete callbacks on MPI_COMM_SELF (which the standard deletes first, in
 * reverse order of setting) and, in both Open MPI and MPICH, on
 * MPI_COMM_WORLD. The checker sets an attribute of its own on each right
 * after MPI_Init, before the user can; the run ends when the last of the two
 * is deleted, after the user's callbacks ran. Should an MPI library not
 * delete one of them, the run ends after MPI_Finalize returns.
 *
 * Nothing here calls MPI: preloaded by hand, rank 0 merges the ranks' parts
 * once every part ends with its "done" line (or after a time limit), so
 * findings made in the last callbacks are in the report too.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "modules.h"
#include "report.h"
#include "lifecycle.h"
#include "rank_board.h"
#include "writers.h"

static int ended;
static int attrs_pending;   /* checker attributes set and not yet deleted */

/* How long rank 0 waits for the other ranks' parts to be complete. */
#define MERGE_WAIT_S 30

static void merge_hand_parts(void)
{
    mc_report_doc doc = {0};
    if (mc_report_merge_dir(mc_st.part_dir, &doc) != 0) {
        perror("mpicheck: cannot read the report parts");
        return;
    }
    if (mc_st.cfg.report_path && mc_report_write_json(mc_st.cfg.report_path, &doc, PACKAGE_VERSION) != 0)
        fprintf(stderr, "mpicheck: cannot write %s\n", mc_st.cfg.report_path);
    if (mc_st.cfg.sarif_path && mc_report_write_sarif(mc_st.cfg.sarif_path, &doc, PACKAGE_VERSION) != 0)
        fprintf(stderr, "mpicheck: cannot write %s\n", mc_st.cfg.sarif_path);
    /* No graph: graphviz is the launcher's to run, not a rank's. */
    if (mc_st.cfg.html_path && mc_report_write_html(mc_st.cfg.html_path, &doc, PACKAGE_VERSION, NULL) != 0)
        fprintf(stderr, "mpicheck: cannot write %s\n", mc_st.cfg.html_path);
    char skipped[2048];
    mc_report_skipped_line(&doc, skipped, sizeof skipped);
    if (skipped[0])
        fprintf(stderr, "%s\n", skipped);
    mc_report_doc_clear(&doc);
}

/* Whether rank r's part ends with the "done" line. */
static int part_done(int r)
{
    char path[4200], line[1024] = "", last[1024] = "";
    snprintf(path, sizeof path, "%s/rank-%d.jsonl", mc_st.part_dir, r);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    /* Lines can be long; only the last one matters, and "done" is short. */
    while (fgets(line, sizeof line, f))
        if (strchr(line, '\n'))
            strcpy(last, line);
    fclose(f);
    return strstr(last, "\"kind\":\"done\"") != NULL;
}

static void wait_for_parts(void)
{
    time_t start = time(NULL);
    for (int r = 0; r < mc_st.world_size; r++) {
        while (!part_done(r)) {
            if (time(NULL) - start > MERGE_WAIT_S) {
                fprintf(stderr, "mpicheck: rank %d's report part is incomplete after %d s; "
                        "merging what there is\n", r, MERGE_WAIT_S);
                return;
            }
            usleep(20000);
        }
    }
}

static void remove_part_dir(void)
{
    char path[4200];
    DIR *d = opendir(mc_st.part_dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "rank-", 5) != 0 && strncmp(e->d_name, "wait.", 5) != 0
            && strcmp(e->d_name, "deadlock.dot") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", mc_st.part_dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(mc_st.part_dir);
}

static void end_of_run(void)
{
    if (ended)
        return;
    ended = 1;
    MC_LOCK();
    mc_modules_end();           /* end-of-run checks (leaks) */
    MC_UNLOCK();
    /* Under mpicheck the merged report says it, after the findings
     * (the "done" line below carries the count). */
    if (mc_report_repeats() > 0 && !mc_st.under_launcher)
        fprintf(stderr, "mpicheck: rank %d: %lu more occurrences of findings above were not "
                "reported again (same check, same call site)\n", mc_st.world_rank, mc_report_repeats());
    /* Tells whoever merges that this process's findings are complete, and
     * that its end-of-run checks ran. */
    mc_report_done_line();
    if (mc_st.own_part_dir) {
        mc_report_close();
        if (mc_st.world_rank == 0) {
            wait_for_parts();
            merge_hand_parts();
            remove_part_dir();
        }
        mc_st.part_dir = NULL;
        mc_report_settings_push();
    }
}

static int checker_attr_deleted(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm; (void)keyval; (void)attr; (void)extra;
    if (--attrs_pending == 0 && mc_st.finalizing)
        end_of_run();
    return MPI_SUCCESS;
}

void mc_end_of_run_register(void)
{
    int keyval;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, checker_attr_deleted, &keyval, NULL) != MPI_SUCCESS)
        return;
    if (PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL) == MPI_SUCCESS)
        attrs_pending++;
    if (PMPI_Comm_set_attr(MPI_COMM_WORLD, keyval, NULL) == MPI_SUCCESS)
        attrs_pending++;
}

void mc_runtime_before_finalize(void)
{
    mc_st.finalizing = 1;
}

void mc_runtime_after_finalize(void)
{
    /* MPI is gone: nothing may render handles through it any more. */
    mc_st.phase = MC_PHASE_FINALIZED;
    mc_board_state(MC_BOARD_FINALIZED);
    end_of_run();
    mc_report_flush();
}

/* The sessions model (MPI-4.0): no MPI_Init needed, no MPI_COMM_WORLD. The
 * checker checks while a session is open; the world model's phase is kept
 * apart, since one process may use both. */
void mc_runtime_session_opened(void)
{
    if (mc_st.sessions_open++ > 0)
        return;
    mc_st.sessions = 1;
    /* Which thread level the sessions got is not known here: lock always. */
    mc_st.thread_level = MPI_THREAD_MULTIPLE;
    mc_keep_preload_from_children();
    if (mc_st.phase == MC_PHASE_PREINIT) {
        mc_st.tag_ub = 0x7fffffff; /* unknown without a communicator: never flag a large tag */
        if (mc_st.world_rank <= 0)
            mc_report_job_line();
    }
}

void mc_runtime_session_closing(void)
{
    if (mc_st.sessions_open == 0 || --mc_st.sessions_open > 0)
        return;
    /* The world model, if it is up, ends the run at its MPI_Finalize. */
    if (mc_st.phase != MC_PHASE_RUNNING) {
        end_of_run();
        ended = 0;   /* a new session may start again */
    }
}
