/*
 * rank_exit.c - a rank that ends while the job runs: killed by a fatal
 * signal (a crash) or gone without MPI_Finalize (exit(), a return from
 * main). Either leaves the other ranks waiting for it; MPI's launcher then
 * usually tears the job down, and without this nobody would say which rank
 * ended, where, and after which MPI call. One rank-exit finding, written to
 * this rank's part file before the process goes (best effort from a signal
 * handler: the process is dying anyway).
 *
 * MPI_Abort (the program's or the checker's own) is an orderly end and is
 * not reported.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "stack.h"
#include "state.h"

static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NFATAL (int)(sizeof fatal / sizeof fatal[0])
static struct sigaction previous[NFATAL];
static volatile sig_atomic_t reported;

static int ending_badly(void)
{
    return mc_st.phase == MC_PHASE_RUNNING && !mc_st.finalizing && !mc_st.aborting && !mc_disabled;
}

static void report(const char *how)
{
    if (reported)
        return;
    reported = 1;
    uintptr_t pcs[32];
    size_t n = mc_stack_capture(pcs, 32);
    mc_call_text *ct = calloc(1, sizeof *ct);
    if (!ct)
        return;
    mc_report_fill_call_vals(ct, mc_st.last_fn >= 0 ? mc_st.last_fn : MC_FN_MPI_Init, NULL, 0, pcs, n);
    free(ct->call);
    ct->call = strdup(how[0] == 'w' ? "signal handler" : "exit");
    ct->rank = mc_st.world_rank;
    char last[512] = "none";
    if (mc_st.last_fn >= 0) {
        mc_frame fr;
        memset(&fr, 0, sizeof fr);
        uintptr_t pc = (uintptr_t)mc_st.last_caller;
        mc_stack_resolve(&pc, 1, &fr);
        const char *base = fr.file ? strrchr(fr.file, '/') : NULL;
        base = base ? base + 1 : fr.file;
        if (base)
            snprintf(last, sizeof last, "%s at %s:%d", mc_fn_table[mc_st.last_fn].name, base, fr.line);
        else
            snprintf(last, sizeof last, "%s", mc_fn_table[mc_st.last_fn].name);
        mc_frames_free(&fr, 1);
    }
    mc_report_with(MC_CLASS_RANK_EXIT, NULL, mc_st.last_fn >= 0 ? mc_st.last_fn : MC_FN_MPI_Init,
                   mc_st.last_caller, ct, 1,
                   "rank %d %s while the job ran; its last MPI call was %s. Ranks waiting for it "
                   "would wait forever (the launcher normally ends them)", mc_st.world_rank, how, last);
    free(ct);
    if (mc_st.part)
        fflush(mc_st.part);
}

static void on_exit_check(void)
{
    if (ending_badly())
        report("ended without calling MPI_Finalize (exit(), or a return from main)");
}

static void on_fatal_signal(int sig)
{
    int i;
    for (i = 0; i < NFATAL && fatal[i] != sig; i++)
        ;
    if (i < NFATAL)
        sigaction(sig, &previous[i], NULL);    /* once: the next one goes to MPI or the default */
    if (ending_badly()) {
        char how[128];
        snprintf(how, sizeof how, "was killed by signal %d (%s)", sig, strsignal(sig));
        report(how);
    }
    raise(sig);
}

/* After MPI_Init: MPI installs its own handlers there (Open MPI prints a
 * backtrace); ours run first and hand the signal on to them. */
void mc_rank_exit_install(void)
{
    atexit(on_exit_check);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    for (int i = 0; i < NFATAL; i++)
        if (sigaction(fatal[i], &sa, &previous[i]) != 0)
            previous[i].sa_handler = SIG_DFL;
}
