/*
 * layout.c - this process's place in the job, for the reports: its host,
 * its node's number and its rank among the processes of its node.
 *
 * RATIONALE: a report of a job across nodes names each rank's host; the
 * launcher's own name for the node (a Slurm node name, the host of
 * mpirun's hostfile) is the one users look up, and the node number and
 * local rank tell how the ranks were placed. Where the launcher runs a PMIx
 * server (Open MPI's mpirun, Slurm's srun --mpi=pmix) PMIx answers all
 * three for certain; elsewhere (MPICH's Hydra, srun --mpi=pmi2) the
 * launchers' environment variables give what they give. PMIx is asked
 * once, at MPI_Init, and let go at once: the MPI library keeps its own
 * connection (PMIx counts its users).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_PMIX
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-decls"   /* pmix_common.h declares environ again */
#include <pmix.h>
#pragma GCC diagnostic pop
#endif
#include "config.h"
#include "layout.h"

/* The first of vars that holds a number >= 0, or -1. */
static int env_number(const char *const *vars)
{
    for (; *vars; vars++) {
        const char *v = getenv(*vars);
        int n;
        if (v && mc_parse_int(v, &n) == 0 && n >= 0)
            return n;
    }
    return -1;
}

#ifdef HAVE_PMIX
/* 0 when the launcher's PMIx server answered (what it knew is in out). */
static int from_pmix(mc_process_place *out)
{
    /* Only where a server said it is there: PMIx_Init without one would
     * look for one (and MPICH's Hydra has none). */
    if (!getenv("PMIX_NAMESPACE") || !getenv("PMIX_RANK"))
        return -1;
#ifdef OPEN_MPI
    /* Open MPI's MPI_Init connected this very library already; one built
     * with its own copy of PMIx is connected through that copy, and a
     * second connection as the same process is not for us to make. */
    if (!PMIx_Initialized())
        return -1;
#endif
    pmix_proc_t me;
    if (PMIx_Init(&me, NULL, 0) != PMIX_SUCCESS)
        return -1;
    pmix_value_t *v = NULL;
    if (PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &v) == PMIX_SUCCESS && v) {
        if (v->type == PMIX_STRING && v->data.string)
            snprintf(out->host, sizeof out->host, "%s", v->data.string);
        PMIX_VALUE_RELEASE(v);
    }
    v = NULL;
    if (PMIx_Get(&me, PMIX_NODEID, NULL, 0, &v) == PMIX_SUCCESS && v) {
        if (v->type == PMIX_UINT32)
            out->node_id = (int)v->data.uint32;
        PMIX_VALUE_RELEASE(v);
    }
    v = NULL;
    if (PMIx_Get(&me, PMIX_LOCAL_RANK, NULL, 0, &v) == PMIX_SUCCESS && v) {
        if (v->type == PMIX_UINT16)
            out->local_rank = (int)v->data.uint16;
        PMIX_VALUE_RELEASE(v);
    }
    PMIx_Finalize(NULL, 0);
    snprintf(out->source, sizeof out->source, "pmix");
    return 0;
}
#endif

void mc_layout_mine(mc_process_place *out)
{
    memset(out, 0, sizeof *out);
    out->node_id = out->local_rank = -1;
#ifdef HAVE_PMIX
    if (from_pmix(out) == 0 && out->host[0] && out->node_id >= 0 && out->local_rank >= 0)
        return;
#endif
    static const char *const local[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                        "PMI_LOCAL_RANK", NULL};
    static const char *const node[] = {"SLURM_NODEID", NULL};
    if (out->local_rank < 0)
        out->local_rank = env_number(local);
    if (out->node_id < 0)
        out->node_id = env_number(node);
    if (!out->host[0] && gethostname(out->host, sizeof out->host) != 0)
        out->host[0] = '\0';
    out->host[sizeof out->host - 1] = '\0';
    if (!out->source[0])
        snprintf(out->source, sizeof out->source, "environment");
}
