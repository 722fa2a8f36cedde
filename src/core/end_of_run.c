/*
 * end_of_run.c - the checks and report work at the end of a run: leaks,
 * the count of repeated findings, and (preloaded by hand) rank 0 merging the
 * job report.
 *
 * RATIONALE: the end of the run is the deletion of an attribute the checker
 * sets on MPI_COMM_SELF right after MPI_Init. MPI_Finalize deletes
 * MPI_COMM_SELF's attributes first, while MPI is still fully usable, in the
 * reverse order they were set (MPI-2.2 and later): the checker's goes last,
 * after every user delete callback has run and freed what it frees, so those
 * frees are seen before leaks are counted. Should an MPI library not call it,
 * the leak check runs after MPI_Finalize returns (without the hand-mode merge,
 * which needs MPI).
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include "checks.h"
#include "report.h"
#include "state.h"
#include "writers.h"

static int ended;

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
    mc_report_doc_clear(&doc);
}

static void remove_part_dir(void)
{
    char path[4200];
    DIR *d = opendir(mc_st.part_dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "rank-", 5) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", mc_st.part_dir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(mc_st.part_dir);
}

/* with_mpi: MPI may still be called (the world model's communicators). */
static void end_of_run(int with_mpi)
{
    if (ended)
        return;
    ended = 1;
    MC_LOCK();
    mc_check_leaks_at_finalize();
    MC_UNLOCK();
    if (mc_report_repeats() > 0)
        fprintf(stderr, "mpicheck: rank %d: %lu more occurrences of findings above were not "
                "reported again (same check, same call site)\n", mc_st.world_rank, mc_report_repeats());
    if (mc_disabled || mc_st.world_dup == MPI_COMM_NULL)
        return;
    if (mc_st.own_part_dir) {
        mc_report_close();
        if (with_mpi) {
            /* Every rank's part is complete once everyone is here. */
            PMPI_Barrier(mc_st.world_dup);
            if (mc_st.world_rank == 0) {
                merge_hand_parts();
                remove_part_dir();
            }
        } else if (mc_st.world_rank == 0) {
            fprintf(stderr, "mpicheck: the job report was not merged (MPI_Finalize did not "
                    "delete MPI_COMM_SELF's attributes); the parts are in %s\n", mc_st.part_dir);
        }
        mc_st.part_dir = NULL;
    }
    if (with_mpi)
        PMPI_Comm_free(&mc_st.world_dup);
}

static int self_deleted(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm; (void)keyval; (void)attr; (void)extra;
    if (mc_st.phase == MC_PHASE_RUNNING && mc_st.finalizing)
        end_of_run(1);
    return MPI_SUCCESS;
}

void mc_end_of_run_register(void)
{
    int keyval;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_deleted, &keyval, NULL) == MPI_SUCCESS)
        PMPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
}

void mc_runtime_before_finalize(void)
{
    mc_st.finalizing = 1;
}

void mc_runtime_after_finalize(void)
{
    end_of_run(0);
    mc_st.phase = MC_PHASE_FINALIZED;
    if (mc_st.part)
        fflush(mc_st.part);
}

/* The sessions model (MPI-4.0): no MPI_Init, no MPI_COMM_WORLD. The checker
 * runs from the first MPI_Session_init to the last MPI_Session_finalize; the
 * rank comes from the launcher's environment. */
static int open_sessions;

void mc_runtime_session_opened(void)
{
    if (open_sessions++ > 0 || mc_st.phase != MC_PHASE_PREINIT)
        return;
    mc_st.sessions = 1;
    mc_st.world_dup = MPI_COMM_NULL;
    mc_st.tag_ub = 0x7fffffff; /* unknown without a communicator: never flag a large tag */
    mc_st.phase = MC_PHASE_RUNNING;
    if (mc_st.world_rank <= 0)
        mc_report_job_line();
}

void mc_runtime_session_closing(void)
{
    if (--open_sessions > 0 || !mc_st.sessions || mc_st.phase != MC_PHASE_RUNNING)
        return;
    end_of_run(0);
    mc_st.phase = MC_PHASE_PREINIT;   /* a new session may start again */
    ended = 0;
}
