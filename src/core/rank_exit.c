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
#include <time.h>
#include "report.h"
#include "skipped.h"
#include "stack.h"
#include "lifecycle.h"
#include "wait_board.h"
#include "rank_board.h"

#define WAITERS_MAX 32

static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NFATAL (int)(sizeof fatal / sizeof fatal[0])
static struct sigaction previous[NFATAL];
static volatile sig_atomic_t reported;

static int ending_badly(void)
{
    return mc_st.phase == MC_PHASE_RUNNING && !mc_st.finalizing && !mc_st.aborting && !mc_report_aborting()
           && !mc_disabled;
}

/* MPI_Finalize called past the checker (a binding that calls
 * PMPI_Finalize directly) before the process exits: not an early end.
 * Asked at exit only, not in a signal handler. */
static int finalized_unseen(void)
{
    int fin = 0;
    return PMPI_Finalized(&fin) == MPI_SUCCESS && fin;
}

static void report(const char *how)
{
    if (reported)
        return;
    reported = 1;
    /* One consistent read of the last call (other threads may still call). */
    int last_fn = __atomic_load_n(&mc_st.last_fn, __ATOMIC_RELAXED);
    const void *last_caller = __atomic_load_n(&mc_st.last_caller, __ATOMIC_RELAXED);
    uintptr_t pcs[32];
    size_t n = mc_stack_capture(pcs, 32);
    mc_call_text *ct = mc_calloc(1, sizeof *ct);
    if (!ct)
        return;
    mc_report_fill_call_vals(ct, last_fn >= 0 ? last_fn : MC_FN_MPI_Init, NULL, 0, pcs, n);
    free(ct->call);
    ct->call = mc_strdup(how[0] == 'w' ? "signal handler" : "exit");
    ct->rank = mc_st.world_rank;
    char last[512] = "none";
    if (last_fn >= 0) {
        mc_frame fr;
        memset(&fr, 0, sizeof fr);
        uintptr_t pc = (uintptr_t)last_caller;
        mc_stack_resolve(&pc, 1, &fr);
        const char *base = fr.file ? strrchr(fr.file, '/') : NULL;
        base = base ? base + 1 : fr.file;
        char name[64];
        snprintf(name, sizeof name, "%s", mc_fn_table[last_fn].name);
        mc_call_text named = {.call = name};
        if (__atomic_load_n(&mc_st.last_fortran, __ATOMIC_RELAXED))
            mc_call_text_fortran_name(&named);      /* the program wrote MPI_RECV */
        if (base)
            snprintf(last, sizeof last, "%s at %s:%d", name, base, fr.line);
        else
            snprintf(last, sizeof last, "%s", name);
        mc_frames_free(&fr, 1);
    }
    /* Who waits for this rank (their wait boards). A peer may be a moment
     * from entering its wait: look again for up to 100 ms when nobody does
     * yet (the process is ending anyway). */
    mc_call_text *calls = mc_calloc(1 + WAITERS_MAX, sizeof *calls);
    int nw = 0;
    if (calls) {
        calls[0] = *ct;
        for (int tries = 0; tries < 10; tries++) {
            nw = mc_board_waiters(mc_st.world_rank, calls + 1, WAITERS_MAX);
            if (nw > 0)
                break;
            struct timespec nap = {0, 10000000};
            nanosleep(&nap, NULL);
        }
    }
    char waiters[1024] = "No rank was seen waiting for it";
    if (nw > 0) {
        size_t len = (size_t)snprintf(waiters, sizeof waiters, "%d rank(s) wait for it and would wait forever "
                                      "(the launcher normally ends them): ", nw);
        for (int i = 0; i < nw && len < sizeof waiters; i++) {
            const mc_call_text *w = &calls[1 + i];
            const char *file = w->nframes && w->stack[0].file ? w->stack[0].file : NULL;
            const char *base = file ? strrchr(file, '/') : NULL;
            base = base ? base + 1 : file;
            if (base)
                len += (size_t)snprintf(waiters + len, sizeof waiters - len, "%srank %d in %s (%s:%d)",
                                        i ? ", " : "", w->rank, w->call, base, w->stack[0].line);
            else
                len += (size_t)snprintf(waiters + len, sizeof waiters - len, "%srank %d in %s",
                                        i ? ", " : "", w->rank, w->call);
        }
    }
    mc_report_with(MC_CLASS_RANK_EXIT, NULL, last_fn >= 0 ? last_fn : MC_FN_MPI_Init,
                   last_caller, calls ? calls : ct, calls ? (size_t)(1 + nw) : 1,
                   "rank %d %s while the job ran; its last MPI call was %s. %s",
                   mc_st.world_rank, how, last, waiters);
    free(calls ? (void *)calls : (void *)ct);
    if (calls)
        free(ct);
    mc_report_flush();
}

static void record_exit_status(int status, void *unused)
{
    (void)unused;
    mc_board_exit_status(status);
}

static void on_exit_check(void)
{
    mc_board_state(MC_BOARD_EXITED);
    if (ending_badly() && !finalized_unseen())
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

/* At the checker's start, before the program's own code runs: exit
 * handlers run in the reverse order of their registration, so this one
 * runs after every handler the program registers, before MPI_Init or
 * after it. A program may call MPI_Finalize from one of those (a C++
 * global whose destructor finalizes, as BAGEL's does; an atexit handler):
 * it did call MPI_Finalize before it exited, which is all MPI asks
 * (MPI-4.0 sec. 11.2.2). Registered at MPI_Init instead, this check ran
 * before the handlers registered earlier and reported such a rank as
 * ended without MPI_Finalize (`rank_exit_ok_finalize_at_exit.c`). A
 * shared library's constructor that ran before the checker's registered
 * its handlers earlier still: they run after this check (handlers
 * registered in the constructors of shared libraries even run after the
 * libraries' destructors, which the C library's start registers later).
 *
 * The exit status goes on the board: a rank that exits with a failing
 * status after MPI_Finalize explains why the launcher ended the others
 * (launcher/vanished.c). Only on_exit() hands a handler the status, and
 * it runs at another time: a shared library's atexit() is tied to the
 * library (__cxa_atexit with its handle) and runs with its destructors
 * at the start of the C library's teardown, while on_exit() runs after
 * it. So the check and the exit code stay with atexit(), where
 * tests/rank_exit_preload.sh fixes their order, and on_exit() only
 * writes the status. */
void mc_rank_exit_boot(void)
{
    atexit(on_exit_check);
    on_exit(record_exit_status, NULL);
}

/* After MPI_Init: MPI installs its own handlers there (Open MPI prints a
 * backtrace); ours run first and hand the signal on to them. */
void mc_rank_exit_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    for (int i = 0; i < NFATAL; i++)
        if (sigaction(fatal[i], &sa, &previous[i]) != 0)
            previous[i].sa_handler = SIG_DFL;
}
