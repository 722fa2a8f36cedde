/*
 * init.c - the hand-written wrappers: MPI_Init, MPI_Init_thread and
 * MPI_Finalize (the checker starts and ends with them) and MPI_Pcontrol
 * (varargs). They follow the generated wrappers' shape: the real call's
 * return code is returned unchanged.
 */
#include <mpi.h>
#include "dispatch.h"
#include "lifecycle.h"
#include "p2p.h"

MC_EXPORT int MPI_Init(int *argc, char ***argv)
{
    if (MC_BYPASS())
        return PMPI_Init(argc, argv);
    mc_value v[2];
    mc_call c;
    v[0].p = argc;
    v[1].p = argv;
    int first = mc_st.phase == MC_PHASE_PREINIT;
    if (first)
        mc_runtime_before_init();
    mc_call_enter(&c, MC_FN_MPI_Init, v, __builtin_return_address(0));
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS && first)
        mc_runtime_after_init(MPI_THREAD_SINGLE);
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}

MC_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    if (MC_BYPASS())
        return PMPI_Init_thread(argc, argv, required, provided);
    mc_value v[4];
    mc_call c;
    v[0].p = argc;
    v[1].p = argv;
    v[2].i = required;
    v[3].p = provided;
    int first = mc_st.phase == MC_PHASE_PREINIT;
    if (first)
        mc_runtime_before_init();
    mc_call_enter(&c, MC_FN_MPI_Init_thread, v, __builtin_return_address(0));
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS && first)
        mc_runtime_after_init(provided ? *provided : MPI_THREAD_SINGLE);
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}

MC_EXPORT int MPI_Finalize(void)
{
    if (MC_BYPASS())
        return PMPI_Finalize();
    mc_call c;
    int running = mc_st.phase == MC_PHASE_RUNNING;
    mc_call_enter(&c, MC_FN_MPI_Finalize, 0, __builtin_return_address(0));
    if (running) {
        mc_eng_finalize();      /* lost messages, receives from finalized ranks */
        mc_runtime_before_finalize();
    }
    int rc = PMPI_Finalize();
    if (running)
        mc_runtime_after_finalize();
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}

/* MPI_Pcontrol's extra arguments have no meaning in MPI itself (profiling
 * libraries define them); they cannot be forwarded portably, and no MPI
 * library reads them. */
MC_EXPORT int MPI_Pcontrol(const int level, ...)
{
    if (MC_BYPASS())
        return PMPI_Pcontrol(level);
    mc_value v[1];
    mc_call c;
    v[0].i = level;
    mc_call_enter(&c, MC_FN_MPI_Pcontrol, v, __builtin_return_address(0));
    int rc = PMPI_Pcontrol(level);
    mc_client_pcontrol(level);
    mc_call_leave(&c, rc == MPI_SUCCESS);
    return rc;
}
