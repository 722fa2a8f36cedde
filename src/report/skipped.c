/*
 * skipped.c - the counts of checks the checker could not make (skipped.h).
 */
#include <stdlib.h>
#include <string.h>
#include "skipped.h"

static long counts[MC_SKIP_COUNT_];

static const struct { const char *name, *what; } reasons[MC_SKIP_COUNT_] = {
    [MC_SKIP_UNCHECKED_COMM] = {"unchecked-communicator",
        "communicators without the checker's private copy (made by "
        "MPI_Comm_connect/accept or MPI_Comm_join, by MPI_Comm_spawn or MPI_Comm_get_parent "
        "when the checker did not start the children, by MPI_Comm_create_group under "
        "MPI_THREAD_MULTIPLE with Open MPI, or whose copy failed; counted on every rank "
        "that has one): their messages and collectives were not checked"},
    [MC_SKIP_COLL_HANDSHAKE] = {"collective-handshake",
        "collective calls not compared across ranks: the checker could not start their "
        "handshake (a communicator whose handshake copy is missing, or the checker's own "
        "allocation or MPI call failed)"},
    [MC_SKIP_NO_MEMORY] = {"checker-memory",
        "allocations of the checker's own that failed: what it was about to check there "
        "(a message's envelope, a wait, a deadlock detection, an object's record, a "
        "report's text) was left undone, and checks that pair ranks may be off after it"},
    [MC_SKIP_UNSEEN_INIT] = {"unseen-mpi-init",
        "processes whose MPI was started without the checker seeing MPI_Init (a binding "
        "that calls MPI's PMPI_Init directly, such as mpi_f08's): the checker stayed off "
        "in them, and nothing of theirs was checked"},
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

/* MPICHECK_INTERNAL_TEST_ALLOC_FAIL=N: every N-th allocation fails (0: none). Read
 * once; a value that is not a positive number is ignored. */
static long fail_every;
static long nallocs;

void mc_alloc_test_arm(void)
{
    const char *v = getenv("MPICHECK_INTERNAL_TEST_ALLOC_FAIL");
    char *end = NULL;
    long n = v ? strtol(v, &end, 10) : 0;
    __atomic_store_n(&fail_every, v && end && *end == '\0' && n > 0 ? n : 0, __ATOMIC_RELAXED);
}

static int injected_failure(void)
{
    long every = __atomic_load_n(&fail_every, __ATOMIC_RELAXED);
    return every > 0 && __atomic_add_fetch(&nallocs, 1, __ATOMIC_RELAXED) % every == 0;
}

static void *counted(void *p)
{
    if (!p)
        mc_skipped(MC_SKIP_NO_MEMORY);
    return p;
}

void *mc_malloc(size_t size)
{
    return counted(injected_failure() ? NULL : malloc(size ? size : 1));
}

void *mc_calloc(size_t n, size_t size)
{
    return counted(injected_failure() ? NULL : calloc(n ? n : 1, size ? size : 1));
}

void *mc_realloc(void *p, size_t size)
{
    return counted(injected_failure() ? NULL : realloc(p, size ? size : 1));
}

char *mc_strdup(const char *s)
{
    return counted(injected_failure() ? NULL : strdup(s));
}

char *mc_strndup(const char *s, size_t n)
{
    return counted(injected_failure() ? NULL : strndup(s, n));
}
