/*
 * call_order.c - MPI calls made when MPI cannot take them: before MPI_Init,
 * after MPI_Finalize, or a second MPI_Init / MPI_Finalize.
 *
 * The functions the standard allows at any time carry the !preinit /
 * !postfinal flags in wrappers/mpi.protos; nothing here names functions.
 */
#include "checks.h"
#include "report.h"
#include "state.h"

int mc_check_call_order(mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    int is_init = c->fn == MC_FN_MPI_Init || c->fn == MC_FN_MPI_Init_thread;
    switch (mc_st.phase) {
    case MC_PHASE_PREINIT:
        /* The sessions model (MPI-4.0) never calls MPI_Init: after
         * MPI_Session_init, any call may be legal without it. */
        if (c->fn == MC_FN_MPI_Session_init)
            mc_st.sessions = 1;
        if ((d->flags & MC_FLAG_PREINIT) || mc_st.sessions)
            return 0;
        mc_report_call(MC_CLASS_CALL_ORDER, c, "%s was called before MPI_Init: "
                       "only a few functions (MPI_Initialized, MPI_Get_version, ...) may be", d->name);
        return 1;
    case MC_PHASE_RUNNING:
        if (!is_init)
            return 0;
        mc_report_call(MC_CLASS_CALL_ORDER, c, "%s was called a second time: MPI may be "
                       "initialized only once (check MPI_Initialized first)", d->name);
        return 1;
    case MC_PHASE_FINALIZED:
        /* MPI-4.0: sessions may be used after MPI_Finalize. */
        if ((d->flags & MC_FLAG_POSTFINAL) || mc_st.sessions_open > 0 || c->fn == MC_FN_MPI_Session_init)
            return 0;
        if (c->fn == MC_FN_MPI_Finalize)
            mc_report_call(MC_CLASS_CALL_ORDER, c, "MPI_Finalize was called a second time");
        else
            mc_report_call(MC_CLASS_CALL_ORDER, c, "%s was called after MPI_Finalize: only "
                           "MPI_Initialized, MPI_Finalized, MPI_Get_version and a few others may be", d->name);
        return 1;
    }
    return 0;
}
