/*
 * client.c - the client requests of include/mpicheck.h, and MPI_Pcontrol's
 * levels as their portable form (core/init.c calls mc_client_pcontrol).
 * RATIONALE: valgrind has client requests and ThreadSanitizer has
 * annotations; a program that knows a finding is intended (a leak kept
 * on purpose, a region it cannot fix yet) says so where it happens,
 * instead of in a suppressions file that drifts from the code.
 */
#include <stdio.h>
#include "dispatch.h"
#include "lifecycle.h"
#include "objects.h"
#include "report.h"

/* The one symbol the header declares weak. */
MC_EXPORT int mpicheck_client_request(int request, const char *arg);

MC_EXPORT int mpicheck_client_request(int request, const char *arg)
{
    switch (request) {
    case 1:     /* MPICHECK_REQ_RUNNING */
        return !mc_disabled;
    case 2:     /* MPICHECK_REQ_OFF */
        mc_report_client_off(1);
        return 0;
    case 3:     /* MPICHECK_REQ_ON */
        mc_report_client_off(-1);
        return 0;
    case 4:     /* MPICHECK_REQ_LEAKS_INTENDED_BEGIN */
        __atomic_add_fetch(&mc_obj_leaks_intended, 1, __ATOMIC_RELAXED);
        return 0;
    case 5:     /* MPICHECK_REQ_LEAKS_INTENDED_END */
        if (__atomic_sub_fetch(&mc_obj_leaks_intended, 1, __ATOMIC_RELAXED) < 0)
            __atomic_store_n(&mc_obj_leaks_intended, 0, __ATOMIC_RELAXED);
        return 0;
    case 6:     /* MPICHECK_REQ_PHASE */
        mc_report_phase(arg);
        return 0;
    case 7:     /* MPICHECK_REQ_FLUSH */
        mc_report_flush();
        return 0;
    default:
        return -1;
    }
}

void mc_client_pcontrol(int level)
{
    if (level == 0)
        mc_report_client_off(1);
    else if (level == 1)
        mc_report_client_off(-1);
    else if (level == 2)
        mc_report_flush();
}
