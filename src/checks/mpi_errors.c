/*
 * mpi_errors.c - mpi-error: the MPI library raises an error in a call
 * whose communicator's error handler is MPI_ERRORS_ARE_FATAL. MPI would
 * end the job at once, and the run would say nothing of it (or "no errors
 * found"); the checker reports the call first, then ends the job as MPI
 * would have.
 *
 * How: at MPI_Init, MPI_COMM_WORLD and MPI_COMM_SELF get the checker's own
 * handler in place of MPI_ERRORS_ARE_FATAL (communicators made from them
 * inherit it), and so does every communicator the program gives
 * MPI_ERRORS_ARE_FATAL with MPI_Comm_set_errhandler. The handler runs
 * inside the failing call (mc_cur_call), reports it with MPI's error
 * string, and aborts the job (MPI_Abort), which is
 * what MPI_ERRORS_ARE_FATAL does (MPI-4.0 sec. 9.3). MPI_Comm_get_errhandler
 * hands the program MPI_ERRORS_ARE_FATAL back instead of the checker's
 * handler, so the program sees what it set.
 *
 * Windows the same way: each new window whose handler is
 * MPI_ERRORS_ARE_FATAL (the default) gets the checker's window handler.
 *
 * Not covered: files (their default is MPI_ERRORS_RETURN), errors
 * returned to a program that chose MPI_ERRORS_RETURN (handling them is its
 * right: MPI's I/O, ports and spawn report environment failures that way),
 * and MPI_ERRORS_ABORT.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "checks.h"
#include "report.h"
#include "runtime.h"
#include "state.h"

static MPI_Errhandler fatal_handler = MPI_ERRHANDLER_NULL;     /* communicators' */
static MPI_Errhandler win_handler = MPI_ERRHANDLER_NULL;       /* windows' */

/* MPI raised error *code in the current call (on a communicator or a
 * window): report it, then end the job as MPI_ERRORS_ARE_FATAL would. */
static void report_and_abort(int code)
{
    char what[MPI_MAX_ERROR_STRING + 1] = "";
    int len = 0;
    if (PMPI_Error_string(code, what, &len) != MPI_SUCCESS)
        snprintf(what, sizeof what, "(MPI has no text for it)");
    mc_call *c = mc_cur_call;
    /* A nonblocking collective whose handshake is still running may be what
     * MPI failed on (an Ialltoallv against an Igather truncates before the
     * background handshake has judged it): its verdict first. A mismatch
     * is reported there, and that ends the job. */
    mc_eng_settle(mc_st.cfg.timeout_s);
    char cause[300] = "", before[240];
    int cls = mc_report_found_in(c, before, sizeof before);
    if (cls >= 0)
        snprintf(cause, sizeof cause, ". The checker found the cause first (%s): %s", mc_class_name(cls), before);
    const char *rule = "under MPI_ERRORS_ARE_FATAL, the error handler of communicators and windows unless "
                       "the program sets another, MPI ends the job on any error (MPI-4.0 sec. 9.3)";
    if (c)
        mc_report_call(MC_CLASS_MPI_ERROR, c, "MPI raised an error in %s: %s (error code %d); %s%s",
                       c->desc->name, what, code, rule, cause);
    else
        mc_report_call(MC_CLASS_MPI_ERROR, NULL, "MPI raised an error outside any MPI call the checker saw: "
                       "%s (error code %d); %s", what, code, rule);
    mc_report_abort_job("error MPI raised (MPI_ERRORS_ARE_FATAL)");
}

static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    report_and_abort(*code);
}

static void on_win_error(MPI_Win *win, int *code, ...)
{
    (void)win;
    report_and_abort(*code);
}

/* The same for a window (their default handler is MPI_ERRORS_ARE_FATAL). */
static void take_over_win(MPI_Win win)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    if (win_handler == MPI_ERRHANDLER_NULL || win == MPI_WIN_NULL
        || PMPI_Win_get_errhandler(win, &eh) != MPI_SUCCESS)
        return;
    int fatal = eh == MPI_ERRORS_ARE_FATAL;
    if (eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_ARE_FATAL && eh != MPI_ERRORS_RETURN)
        PMPI_Errhandler_free(&eh);
    if (fatal)
        PMPI_Win_set_errhandler(win, win_handler);
}

/* Puts the checker's handler on comm if the handler it has is
 * MPI_ERRORS_ARE_FATAL. */
static void take_over(MPI_Comm comm)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    if (fatal_handler == MPI_ERRHANDLER_NULL || PMPI_Comm_get_errhandler(comm, &eh) != MPI_SUCCESS)
        return;
    int fatal = eh == MPI_ERRORS_ARE_FATAL;
    if (eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_ARE_FATAL && eh != MPI_ERRORS_RETURN)
        PMPI_Errhandler_free(&eh);
    if (fatal)
        PMPI_Comm_set_errhandler(comm, fatal_handler);
}

void mc_mpi_errors_start(void)
{
    if (!mc_eng_on || fatal_handler != MPI_ERRHANDLER_NULL)
        return;
    if (PMPI_Comm_create_errhandler(on_error, &fatal_handler) != MPI_SUCCESS) {
        fatal_handler = MPI_ERRHANDLER_NULL;
        return;
    }
    mc_st.fatal_errhandler = fatal_handler;
    if (PMPI_Win_create_errhandler(on_win_error, &win_handler) != MPI_SUCCESS)
        win_handler = MPI_ERRHANDLER_NULL;
    take_over(MPI_COMM_WORLD);
    take_over(MPI_COMM_SELF);
}

static int claims(int fn)
{
    return fn == MC_FN_MPI_Comm_set_errhandler || fn == MC_FN_MPI_Comm_get_errhandler
           || fn == MC_FN_MPI_Errhandler_set || fn == MC_FN_MPI_Errhandler_get     /* MPI-1's names */
           || fn == MC_FN_MPI_Win_set_errhandler || fn == MC_FN_MPI_Win_get_errhandler;
}

static void leave(mc_call *c, int ok)
{
    if (!ok || fatal_handler == MPI_ERRHANDLER_NULL)
        return;
    if (c->desc->role_mask & MC_ROLE_BIT(MC_ROLE_WIN_OUT)) {     /* a new window */
        for (int i = 0; i < c->desc->nparams; i++)
            if (c->desc->params[i].role == MC_ROLE_WIN_OUT && c->vals[i].p)
                take_over_win(*(const MPI_Win *)c->vals[i].p);
        return;
    }
    int win = c->fn == MC_FN_MPI_Win_set_errhandler || c->fn == MC_FN_MPI_Win_get_errhandler;
    int set = c->fn == MC_FN_MPI_Comm_set_errhandler || c->fn == MC_FN_MPI_Errhandler_set
              || c->fn == MC_FN_MPI_Win_set_errhandler;
    MPI_Errhandler ours = win ? win_handler : fatal_handler;
    if (ours == MPI_ERRHANDLER_NULL)
        return;
    if (set && c->vals[1].eh == MPI_ERRORS_ARE_FATAL) {
        if (win)
            PMPI_Win_set_errhandler(c->vals[0].win, ours);
        else
            PMPI_Comm_set_errhandler(c->vals[0].comm, ours);
    } else if (!set) {
        MPI_Errhandler *out = (MPI_Errhandler *)c->vals[1].p;
        if (out && *out == ours) {
            PMPI_Errhandler_free(out);      /* the reference the call gave */
            *out = MPI_ERRORS_ARE_FATAL;
        }
    }
}

/* Engine = 1: claimed calls are seen while the checker runs (with the
 * handshakes off, the handler is never put in place either). */
const mc_module mc_mpi_errors_module = {
    .name = "mpi-errors",
    .engine = 1,
    .claims = claims,
    .leave_roles = MC_ROLE_BIT(MC_ROLE_WIN_OUT),
    .leave = leave,
};
