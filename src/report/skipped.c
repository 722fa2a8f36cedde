/*
 * skipped.c - the counts of checks the checker could not make (skipped.h).
 */
#include "skipped.h"

static long counts[MC_SKIP_COUNT_];

static const struct { const char *name, *what; } reasons[MC_SKIP_COUNT_] = {
    [MC_SKIP_UNCHECKED_COMM] = {"unchecked-communicator",
        "communicators without the checker's private copy (made by MPI_Comm_spawn, "
        "MPI_Comm_connect/accept, MPI_Comm_join or MPI_Comm_get_parent, or whose copy "
        "failed; counted on every rank that has one): their messages and "
        "collectives were not checked"},
    [MC_SKIP_COLL_HANDSHAKE] = {"collective-handshake",
        "collective calls not compared across ranks: the checker could not start their "
        "handshake (an intercommunicator copied by MPI_Comm_idup, a communicator whose "
        "handshake copy is missing, or the checker's own allocation or MPI call failed)"},
};

void mc_skipped(mc_skip_reason why)
{
    if ((unsigned)why < MC_SKIP_COUNT_)
        __atomic_add_fetch(&counts[why], 1, __ATOMIC_RELAXED);
}

long mc_skipped_count(mc_skip_reason why)
{
    return (unsigned)why < MC_SKIP_COUNT_ ? __atomic_load_n(&counts[why], __ATOMIC_RELAXED) : 0;
}

const char *mc_skipped_name(mc_skip_reason why)
{
    return (unsigned)why < MC_SKIP_COUNT_ ? reasons[why].name : "unknown";
}

const char *mc_skipped_what(mc_skip_reason why)
{
    return (unsigned)why < MC_SKIP_COUNT_ ? reasons[why].what : "unknown";
}
