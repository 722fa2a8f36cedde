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
 * Files too, where the program asks for MPI_ERRORS_ARE_FATAL (their
 * default is MPI_ERRORS_RETURN; set on MPI_FILE_NULL, it is the handler
 * of files opened later and of MPI_File_open's own errors).
 *
 * Not covered: errors returned to a program that chose MPI_ERRORS_RETURN
 * or a handler of its own (handling them is its right: MPI's I/O, ports
 * and spawn report environment failures that way; the MPICH test suite's
 * errhan/ and errors/ directories provoke errors on purpose and check the
 * codes), and MPI_ERRORS_ABORT (MPI-4.0): Open MPI 4.1 lacks it, and
 * MPICH 4.0.2 fails an assertion in MPI_Comm_set_errhandler when a program
 * sets it, with or without the checker.
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
static MPI_Errhandler file_handler = MPI_ERRHANDLER_NULL;      /* files' */

/* MPI raised error *code in the current call (on a communicator or a
 * window): report it, then end the job as MPI_ERRORS_ARE_FATAL would. */
static void report_and_abort(int code, const char *handler)
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
    const char *rule = handler ? handler
                               : "under MPI_ERRORS_ARE_FATAL, the error handler of communicators and windows "
                                 "unless the program sets another, MPI ends the job on any error (MPI-4.0 sec. 9.3)";
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
    if (mc_rendering)
        return;     /* the checker's own query of a bad handle: MPI returns the error to it */
    (void)comm;
    report_and_abort(*code, NULL);
}

static void on_win_error(MPI_Win *win, int *code, ...)
{
    if (mc_rendering)
        return;     /* the checker's own query of a bad handle: MPI returns the error to it */
    (void)win;
    report_and_abort(*code, NULL);
}

static void on_file_error(MPI_File *file, int *code, ...)
{
    if (mc_rendering)
        return;     /* the checker's own query of a bad handle: MPI returns the error to it */
    (void)file;
    report_and_abort(*code, "under MPI_ERRORS_ARE_FATAL, which the program set for this file (or for "
                            "MPI_FILE_NULL, the files' default), MPI ends the job on any error (MPI-4.0 sec. 9.3)");
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
    if (PMPI_File_create_errhandler(on_file_error, &file_handler) != MPI_SUCCESS)
        file_handler = MPI_ERRHANDLER_NULL;
    take_over(MPI_COMM_WORLD);
    take_over(MPI_COMM_SELF);
}

static int claims(int fn)
{
    return fn == MC_FN_MPI_Comm_set_errhandler || fn == MC_FN_MPI_Comm_get_errhandler
           || fn == MC_FN_MPI_Errhandler_set || fn == MC_FN_MPI_Errhandler_get     /* MPI-1's names */
           || fn == MC_FN_MPI_Win_set_errhandler || fn == MC_FN_MPI_Win_get_errhandler
           || fn == MC_FN_MPI_File_set_errhandler || fn == MC_FN_MPI_File_get_errhandler;
}

/* The program's predefined handler h on an object of kind (0 communicator,
 * 1 window, 2 file): the checker's stand-in for it, or NULL (keep h). */
static MPI_Errhandler stand_in(int kind, MPI_Errhandler h)
{
    if (h == MPI_ERRORS_ARE_FATAL)
        return kind == 0 ? fatal_handler : kind == 1 ? win_handler : file_handler;
    return MPI_ERRHANDLER_NULL;
}

/* What the program set that the checker's handler stands for (the
 * reverse of stand_in), or MPI_ERRHANDLER_NULL when h is none of them. */
static MPI_Errhandler stood_for(MPI_Errhandler h)
{
    if (h == MPI_ERRHANDLER_NULL)
        return MPI_ERRHANDLER_NULL;
    if (h == fatal_handler || h == win_handler || h == file_handler)
        return MPI_ERRORS_ARE_FATAL;
    return MPI_ERRHANDLER_NULL;
}

/* The program asked for the handler of an object that has the checker's in
 * place of `was` (MPI_ERRORS_ARE_FATAL): it gets `was`, and as a reference
 * of its own, since it may free what a get call returns (MPI-4.0 sec.
 * 9.3.4) and Open MPI counts references to predefined handlers too: an
 * uncounted handle freed again and again took MPI's own references until
 * MPI_Errhandler_free failed with MPI_ERR_ARG, or MPI_Finalize freed the
 * predefined object (mpi4py's test_errhandler). MPI makes a reference
 * only in a get call, so `was` is put on the object for one get and ours
 * put back. On failure *out keeps the uncounted handle, as before. */
static void give_reference(int kind, mc_call *c, MPI_Errhandler was, MPI_Errhandler ours,
                           MPI_Errhandler *out)
{
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    int rc;
    if (kind == 1) {
        MPI_Win w = c->vals[0].win;
        rc = PMPI_Win_set_errhandler(w, was) == MPI_SUCCESS && PMPI_Win_get_errhandler(w, &got) == MPI_SUCCESS;
        PMPI_Win_set_errhandler(w, ours);
    } else if (kind == 2) {
        MPI_File f = c->vals[0].file;
        rc = PMPI_File_set_errhandler(f, was) == MPI_SUCCESS && PMPI_File_get_errhandler(f, &got) == MPI_SUCCESS;
        PMPI_File_set_errhandler(f, ours);
    } else {
        MPI_Comm m = c->vals[0].comm;
        rc = PMPI_Comm_set_errhandler(m, was) == MPI_SUCCESS && PMPI_Comm_get_errhandler(m, &got) == MPI_SUCCESS;
        PMPI_Comm_set_errhandler(m, ours);
    }
    if (rc && got == was)
        *out = got;
    else if (got != MPI_ERRHANDLER_NULL && got != was)
        PMPI_Errhandler_free(&got);
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
    int kind = c->fn == MC_FN_MPI_Win_set_errhandler || c->fn == MC_FN_MPI_Win_get_errhandler ? 1
               : c->fn == MC_FN_MPI_File_set_errhandler || c->fn == MC_FN_MPI_File_get_errhandler ? 2 : 0;
    int set = c->fn == MC_FN_MPI_Comm_set_errhandler || c->fn == MC_FN_MPI_Errhandler_set
              || c->fn == MC_FN_MPI_Win_set_errhandler || c->fn == MC_FN_MPI_File_set_errhandler;
    if (set) {
        MPI_Errhandler ours = stand_in(kind, c->vals[1].eh);
        if (ours == MPI_ERRHANDLER_NULL)
            return;
        if (kind == 1)
            PMPI_Win_set_errhandler(c->vals[0].win, ours);
        else if (kind == 2)
            PMPI_File_set_errhandler(c->vals[0].file, ours);
        else
            PMPI_Comm_set_errhandler(c->vals[0].comm, ours);
    } else {
        MPI_Errhandler *out = (MPI_Errhandler *)c->vals[1].p;
        MPI_Errhandler was = out ? stood_for(*out) : MPI_ERRHANDLER_NULL;
        if (was != MPI_ERRHANDLER_NULL) {
            MPI_Errhandler ours = *out;
            PMPI_Errhandler_free(out);      /* the reference the call gave */
            *out = was;
            give_reference(kind, c, was, ours, out);
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
