/*
 * lifecycle.c - the checker's life in one rank: loaded (constructor), started
 * (after MPI_Init), ended (MPI_Finalize), and the hand-preloaded mode where
 * no launcher merges the report.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* environ */
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "skipped.h"
#include "objects.h"
#include "report.h"
#include "stack.h"
#include "typesig.h"
#include "lifecycle.h"
#include "layout.h"
#include "relay_wire.h"
#include "wait_board.h"
#include "checks.h"
#include "inter.h"
#include "modules.h"
#include "runtime.h"
#include "rank_board.h"
#include "writers.h"


static const char *env_get(const char *name)
{
    return getenv(name);
}

/* The world rank before MPI_Init, from what launchers put in the environment
 * (so a call before MPI_Init can already be reported under its rank). */
static int rank_from_env(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        int r;
        if (v && mc_parse_int(v, &r) == 0 && r >= 0)
            return r;
    }
    return -1;
}

/* The same for the size of MPI_COMM_WORLD (-1: not told). */
static int size_from_env(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        int n;
        if (v && mc_parse_int(v, &n) == 0 && n > 0)
            return n;
    }
    return -1;
}

/* At MPI_Init's entry: the board opens now, so that the launcher sees a
 * rank that hangs inside MPI_Init (rank_board.h). A spawned process knows
 * its job's label from the variable its parents set. */
void mc_runtime_before_init(void)
{
    if (mc_st.cfg_ok)
        mc_board_open(mc_inter_parent_label(), size_from_env());
}

/* Programs that a rank starts with system() or popen() (a shell, grep, a
 * helper linked to another MPI) must not load the checker: only the rank's
 * own process needs it, and MPI_Comm_spawn gets it from the launcher. Done
 * once the process is a rank (after MPI_Init), never at load time: a shell
 * script that wraps the MPI program must pass the preload on to it. */
void mc_keep_preload_from_children(void)
{
    const char *pre = getenv("LD_PRELOAD");
    if (!pre || !strstr(pre, "libmpicheck"))
        return;
    char *copy = mc_strdup(pre), *out = mc_calloc(1, strlen(pre) + 1), *save = NULL;
    if (!copy || !out) {
        free(copy);
        free(out);
        return;
    }
    for (char *tok = strtok_r(copy, ": ", &save); tok; tok = strtok_r(NULL, ": ", &save)) {
        if (strstr(tok, "libmpicheck"))
            continue;
        if (*out)
            strcat(out, ":");
        strcat(out, tok);
    }
    if (*out)
        setenv("LD_PRELOAD", out, 1);
    else
        unsetenv("LD_PRELOAD");
    free(copy);
    free(out);
}

static void exit_with_error_code(void);

/* A datatype the program frees: the runtime's records still using it get
 * their own copy first, then its cached signature goes (MPI reuses handle
 * values). */
static void type_freeing(MPI_Datatype type)
{
    mc_eng_type_freeing(type);
    mc_typesig_forget(type);
}

static int mpi_up(void) { return mc_checking(); }

/* The layers below know nothing of those above them (docs/design.md): what
 * a lower one needs of a higher one is handed down here, once, at load. */
static void connect_layers(void)
{
    mc_render_set_namer(&mc_obj_namer);
    mc_render_set_mpi_up(mpi_up);
    mc_track_listen(&(mc_track_listener){.comm_freeing = mc_eng_comm_freeing,
                                         .type_freeing = type_freeing,
                                         .comm_freed = mc_eng_comm_freed,
                                         .comm_created = mc_eng_comm_created});
    mc_modules_load();          /* the families register with the runtime */
}

void mc_report_settings_push(void)
{
    mc_report_settings r = {
        .world_rank = mc_st.world_rank, .world_size = mc_st.world_size, .spawned = mc_st.spawned,
        .job = mc_st.job,
        .part_dir = mc_st.part_dir,
        .color = mc_config_use_color(&mc_st.cfg, isatty(STDERR_FILENO), getenv("NO_COLOR")),
        .mode = mc_st.cfg.mode, .timeout_s = mc_st.cfg.timeout_s, .error_exitcode = mc_st.cfg.error_exitcode,
        .checks = mc_st.cfg.checks, .suppressions = mc_st.cfg.suppressions,
        .collector = mc_st.under_launcher ? getenv(MC_RELAY_ENV) : NULL,
    };
    mc_report_configure(&r);
}

/* A child the program forks without exec is not the rank: MPI may not be
 * used there, so the checker steps aside (its wrappers pass through), and
 * the child's end is neither a rank's early exit nor the rank's exit code
 * (OSU's osu_latency_mp forks helpers that return from main: each was a
 * false rank-exit error). */
static int forked_child;
static void in_forked_child(void)
{
    forked_child = 1;
    mc_disabled = 1;
}

__attribute__((constructor)) static void mc_boot(void)
{
    mc_alloc_test_arm();
    connect_layers();
    mc_config_defaults(&mc_st.cfg);
    if (mc_config_from_env(&mc_st.cfg, env_get, environ, mc_st.cfg_error, sizeof mc_st.cfg_error) != 0)
        mc_st.cfg_ok = 0;
    mc_st.world_rank = rank_from_env();
    if (mc_st.cfg.dir) {
        mc_st.under_launcher = 1;
        mc_st.part_dir = mc_st.cfg.dir;
    }
    mc_report_settings_push();
    /* Computes the checker's own code range now, not inside a first report. */
    uintptr_t pc;
    (void)mc_stack_capture(&pc, 1);
    /* Registered first, so it runs last: every handler the program or MPI
     * registers later (C++ destructors, result files, stream flushes) runs
     * before the exit code is set. */
    atexit(exit_with_error_code);
    /* Second, so it runs just before: a rank that ends without MPI_Finalize
     * is an error finding the exit code must count. */
    mc_rank_exit_boot();
    pthread_atfork(NULL, NULL, in_forked_child);
}

void mc_disable(const char *why)
{
    if (!mc_disabled)
        fprintf(stderr, "mpicheck: internal problem: %s; checking is off for the rest of this run\n", why);
    mc_disabled = 1;
}

/* Preloaded by hand, the process exit code is the gate: a rank that found an
 * error exits with the error exit code, as valgrind's --error-exitcode does. */
static void exit_with_error_code(void)
{
    int errors = 0, warnings = 0;
    mc_report_counts(&errors, &warnings);
    if (errors > 0 && !mc_st.under_launcher && mc_st.phase != MC_PHASE_PREINIT && !forked_child) {
        fflush(NULL);
        _exit(mc_st.cfg.error_exitcode);
    }
}

/* Preloaded by hand with MPICHECK_REPORT/_SARIF/_HTML: rank 0 makes a
 * private directory for the parts and tells everyone. */
static void setup_hand_parts(void)
{
    char dir[4096] = "";
    if (!mc_st.cfg.report_path && !mc_st.cfg.sarif_path && !mc_st.cfg.html_path)
        return;
    if (mc_st.world_rank == 0) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/mpicheck.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mpicheck: cannot create a directory for the report parts");
            dir[0] = '\0';
        }
    }
    PMPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, mc_st.world_dup);
    if (dir[0]) {
        mc_st.part_dir = mc_strdup(dir);
        mc_st.own_part_dir = 1;
    }
}

/* MPI is running, but the checker never saw MPI_Init (a binding that
 * calls PMPI_Init directly): set up now would mean collective calls (the
 * checker's copy of MPI_COMM_WORLD) at a point the other processes may
 * never reach, so the checker stays off here, says so, and writes down
 * that nothing of this process was checked. Never a finding: its calls
 * are not "before MPI_Init", and its end is not an early exit. */
void mc_runtime_unseen_init(const char *first_call)
{
    int fin = 0;
    PMPI_Finalized(&fin);
    if (!fin) {
        PMPI_Comm_rank(MPI_COMM_WORLD, &mc_st.world_rank);
        PMPI_Comm_size(MPI_COMM_WORLD, &mc_st.world_size);
        mc_report_settings_push();
        if (mc_st.world_rank == 0) {
            fprintf(stderr, "mpicheck: MPI was started without the checker seeing MPI_Init (the first "
                    "call it saw was %s; a binding that calls PMPI_Init directly, such as mpi_f08's): "
                    "the checker stays off in this run, nothing is checked\n", first_call);
            mc_report_job_line();
        }
        mc_skipped(MC_SKIP_UNSEEN_INIT);
        mc_report_done_line();
        mc_report_flush();
    }
    mc_disabled = 1;
}

void mc_runtime_after_init(int provided)
{
    mc_st.thread_level = provided;
    PMPI_Comm_rank(MPI_COMM_WORLD, &mc_st.world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &mc_st.world_size);
    mc_report_settings_push();
    if (!mc_st.cfg_ok) {
        /* Checking with settings the user did not ask for would be worse
         * than not running: say it once and stop the job. */
        if (mc_st.world_rank == 0)
            fprintf(stderr, "mpicheck: %s\nmpicheck: stopping the job: fix or unset the variable\n",
                    mc_st.cfg_error);
        fflush(stderr);
        sleep(1);   /* let rank 0's message out before the abort tears the job down */
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    void *ub = NULL;
    int flag = 0;
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag && ub)
        mc_st.tag_ub = *(int *)ub;
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &mc_st.world_dup) != MPI_SUCCESS) {
        mc_disable("cannot duplicate MPI_COMM_WORLD for the checker's own messages");
        return;
    }
    /* The predefined communicators are known from the start. */
    mc_call boot = {.fn = MC_FN_MPI_Init, .desc = &mc_fn_table[MC_FN_MPI_Init]};
    mc_obj *w = mc_obj_add(MC_OBJ_COMM, MC_BITS(MPI_COMM_WORLD), &boot, 0);
    mc_obj *s = mc_obj_add(MC_OBJ_COMM, MC_BITS(MPI_COMM_SELF), &boot, 0);
    if (w) { w->owned = 0; mc_comm_fill(w, MPI_COMM_WORLD); }
    if (s) { s->owned = 0; mc_comm_fill(s, MPI_COMM_SELF); }
    MPI_Comm parent = MPI_COMM_NULL;
    PMPI_Comm_get_parent(&parent);
    mc_st.spawned = parent != MPI_COMM_NULL;
    if (mc_st.spawned) {
        /* The label its checked parents gave this job (inter/spawn.c). */
        const char *label = mc_inter_parent_label();
        snprintf(mc_st.job, sizeof mc_st.job, "%s", label ? label : "spawned");
    }
    /* Spawned processes preloaded by hand do not know their parents' part
     * directory: their findings go to stderr only (the launcher has no such
     * gap), rather than into a second report over the parents'. */
    if (!mc_st.under_launcher && !mc_st.spawned)
        setup_hand_parts();
    mc_report_settings_push();
    mc_end_of_run_register();
    mc_keep_preload_from_children();
    mc_st.phase = MC_PHASE_RUNNING;
    mc_eng_start();
    mc_inter_spawned_start();   /* the parent communicator's shadow, with checked parents */
    mc_mpi_errors_start();      /* MPI's fatal errors reported before the job ends */
    mc_rank_exit_install();
    mc_board_open(mc_st.job, mc_st.world_size);     /* when the rank was not known at MPI_Init's entry */
    mc_board_state(MC_BOARD_RUNNING);
    mc_board_one_caller(provided != MPI_THREAD_MULTIPLE);
    mc_board_relay_start();     /* a rank on another node than the launcher's: its board goes there */
    if (mc_st.world_rank == 0 && !mc_st.spawned)
        mc_report_job_line();
    mc_process_place place;
    mc_layout_mine(&place);
    mc_report_process_line(&place); /* where it runs: reports of a job across nodes name hosts */
    /* A deadlock is proven only while no thread of the program could
     * still make the releasing call (runtime/deadlock_answer.c), and the
     * strict-mode wait for receives is off while the program runs threads
     * of its own (runtime/deadlock_answer.c, mc_eng_strict_now). Said once, so a clean
     * report is not read as "no deadlock possible": by the job mpicheck
     * started, not again by each job it spawns (MPICH's
     * threads/spawn/th_taskmanager printed it 36 times). */
    if (provided == MPI_THREAD_MULTIPLE && mc_st.world_rank == 0 && !mc_st.spawned && mc_eng_on)
        fprintf(stderr, "mpicheck: note: the program asked for MPI_THREAD_MULTIPLE: a deadlock is proven only "
                        "while every thread of the program waits in MPI (or in pthread_join), and "
                        "potential deadlocks are looked for only while it runs no thread besides the main one "
                        "(under the mpicheck launcher a job whose threads all hang in MPI is still reported, "
                        "as a hang)\n");
}

