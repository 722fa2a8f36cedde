/*
 * inter.c - the intercommunicator family of checks (inter.h): which calls
 * it sees, and which file checks each.
 */
#include "inter.h"
#include "inter_internal.h"

static int claims(int fn)
{
    switch (fn) {
    case MC_FN_MPI_Intercomm_create: case MC_FN_MPI_Intercomm_merge:
    case MC_FN_MPI_Intercomm_create_from_groups:
    case MC_FN_MPI_Comm_dup: case MC_FN_MPI_Comm_dup_with_info:
    case MC_FN_MPI_Comm_create: case MC_FN_MPI_Comm_split:
    case MC_FN_MPI_Comm_spawn: case MC_FN_MPI_Comm_spawn_multiple:
        return 1;
    default:
        return 0;
    }
}

static void enter(mc_call *c)
{
    if (c->fn == MC_FN_MPI_Intercomm_create)
        ic_create_enter(c);
    else if (c->fn == MC_FN_MPI_Intercomm_merge)
        ic_merge_enter(c);
    else if (c->fn == MC_FN_MPI_Intercomm_create_from_groups)
        ic_from_groups_enter(c);
    else if (c->fn == MC_FN_MPI_Comm_spawn || c->fn == MC_FN_MPI_Comm_spawn_multiple)
        ic_spawn_enter(c);
}

static void leave(mc_call *c, int ok)
{
    if (c->fn == MC_FN_MPI_Intercomm_create)
        ic_create_leave(c, ok);
    else if (c->fn == MC_FN_MPI_Comm_spawn || c->fn == MC_FN_MPI_Comm_spawn_multiple)
        ic_spawn_leave(c, ok);
    else if (c->fn == MC_FN_MPI_Intercomm_create_from_groups)
        ic_from_groups_leave(c, ok);
    else
        ic_from_inter_leave(c, ok);
}

/* After tracking in the list (core/modules.c), so that its leave runs
 * before tracking makes the new communicator's shadow: a communicator
 * that only some processes got must not get one (c->new_comm_unsafe). */
const mc_module mc_inter_module = {
    .name = "inter",
    .engine = 1,
    .claims = claims,
    .enter = enter,
    .leave = leave,
};
