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
 * string, and aborts the job with MPI_Abort on that communicator, which is
 * what MPI_ERRORS_ARE_FATAL does (MPI-4.0 sec. 9.3). MPI_Comm_get_errhandler
 * hands the program MPI_ERRORS_ARE_FATAL back instead of the checker's
 * handler, so the program sees what it set.
 *
 * Not covered: windows and files (their handlers are left alone), errors
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

static MPI_Errhandler fatal_handler = MPI_ERRHANDLER_NULL;

static void on_error(MPI_Comm *comm, int *code, ...)
{
    char what[MPI_MAX_ERROR_STRING + 1] = "", cname[64];
    int len = 0;
    if (PMPI_Error_string(*code, what, &len) != MPI_SUCCESS)
        snprintf(what, sizeof what, "(MPI has no text for it)");
    mc_pcomm_name(*comm, cname, sizeof cname);
    mc_call *c = mc_cur_call;
    char cause[300] = "", before[240];
    int cls = mc_report_found_in(c, before, sizeof before);
    if (cls >= 0)
        snprintf(cause, sizeof cause, ". The checker found the cause first (%s): %s", mc_class_name(cls), before);
    const char *rule = "under MPI_ERRORS_ARE_FATAL, a communicator's error handler unless the program sets "
                       "another, MPI ends the job on any error (MPI-4.0 sec. 9.3)";
    if (c)
        mc_report_call(MC_CLASS_MPI_ERROR, c, "MPI raised an error in %s: %s (error code %d); %s%s",
                       c->desc->name, what, *code, rule, cause);
    else
        mc_report_call(MC_CLASS_MPI_ERROR, NULL, "MPI raised an error on %s outside any MPI call the checker "
                       "saw: %s (error code %d); %s", cname, what, *code, rule);
    mc_report_abort_job("error MPI raised (MPI_ERRORS_ARE_FATAL)");
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
    take_over(MPI_COMM_WORLD);
    take_over(MPI_COMM_SELF);
}

static int claims(int fn)
{
    return fn == MC_FN_MPI_Comm_set_errhandler || fn == MC_FN_MPI_Comm_get_errhandler
           || fn == MC_FN_MPI_Errhandler_set || fn == MC_FN_MPI_Errhandler_get;   /* MPI-1's names */
}

static void leave(mc_call *c, int ok)
{
    if (!ok || fatal_handler == MPI_ERRHANDLER_NULL)
        return;
    int set = c->fn == MC_FN_MPI_Comm_set_errhandler || c->fn == MC_FN_MPI_Errhandler_set;
    if (set && c->vals[1].eh == MPI_ERRORS_ARE_FATAL) {
        PMPI_Comm_set_errhandler(c->vals[0].comm, fatal_handler);
    } else if (!set) {
        MPI_Errhandler *out = (MPI_Errhandler *)c->vals[1].p;
        if (out && *out == fatal_handler) {
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
    .leave = leave,
};
