/*
 * hang_rule.c - the rule of hang_rule.h.
 */
#include "hang_rule.h"

#include <stdlib.h>
#include <string.h>
#include "board_layout.h"

static int same_job(const mc_hang_rank *a, const char *job)
{
    return strcmp(a->job ? a->job : "", job ? job : "") == 0;
}

/* Whether every rank of job (its world size as its boards say) has a board. */
static int job_complete(const mc_hang_rank *r, size_t n, const char *job)
{
    int size = -1, seen = 0;
    for (size_t i = 0; i < n; i++)
        if (same_job(&r[i], job)) {
            if (r[i].world_size > size)
                size = r[i].world_size;
            seen++;
        }
    return size > 0 && seen >= size;
}

/* A rank in MPI_Comm_spawn waits for a job that may still be starting:
 * stuck only when a parent of the same job names the children's job and
 * all of its processes are there. */
static int spawn_children_there(const mc_hang_rank *r, size_t n, const mc_hang_rank *parent)
{
    int named = 0;
    for (size_t i = 0; i < n; i++) {
        if (!same_job(&r[i], parent->job) || !r[i].spawning || !r[i].spawning[0])
            continue;
        named = 1;
        if (!job_complete(r, n, r[i].spawning))
            return 0;
    }
    return named;
}

/* MPI's local procedures (MPI-4.0 sec. 2.4.2) that can take long: those
 * that move or convert data, start an operation, or test for one. A
 * prefix ends in '_'; a large-count "_c" form matches its base name. */
static const char *const local_calls[] = {
    /* one-sided communication calls only start a transfer (sec. 12.3) */
    "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate", "MPI_Fetch_and_op",
    "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget", "MPI_Raccumulate", "MPI_Rget_accumulate",
    "MPI_Win_sync", "MPI_Win_test",
    /* starts of nonblocking and persistent point-to-point operations */
    "MPI_Isend", "MPI_Ibsend", "MPI_Issend", "MPI_Irsend", "MPI_Irecv", "MPI_Imrecv",
    "MPI_Isendrecv", "MPI_Isendrecv_replace", "MPI_Bsend", "MPI_Send_init", "MPI_Bsend_init",
    "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Recv_init", "MPI_Start", "MPI_Startall",
    /* starts of nonblocking collectives */
    "MPI_Ibarrier", "MPI_Ibcast", "MPI_Igather", "MPI_Igatherv", "MPI_Iscatter", "MPI_Iscatterv",
    "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Ialltoall", "MPI_Ialltoallv", "MPI_Ialltoallw",
    "MPI_Ireduce", "MPI_Iallreduce", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
    "MPI_Iscan", "MPI_Iexscan", "MPI_Ineighbor_", "MPI_Comm_idup", "MPI_Comm_idup_with_info",
    "MPI_File_iread", "MPI_File_iwrite", "MPI_File_iread_at", "MPI_File_iwrite_at",
    "MPI_File_iread_all", "MPI_File_iwrite_all", "MPI_File_iread_at_all", "MPI_File_iwrite_at_all",
    /* tests */
    "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome", "MPI_Iprobe", "MPI_Improbe",
    "MPI_Request_get_status", "MPI_Parrived", "MPI_Pready", "MPI_Pready_list", "MPI_Pready_range",
    /* data conversion in the caller's memory */
    "MPI_Pack", "MPI_Unpack", "MPI_Pack_external", "MPI_Unpack_external", "MPI_Reduce_local",
    "MPI_Type_", "MPI_Alloc_mem", "MPI_Free_mem",
    NULL};

int mc_hang_local_call(const char *name)
{
    if (!name)
        return 0;
    size_t len = strlen(name);
    if (len > 2 && strcmp(name + len - 2, "_c") == 0)
        len -= 2;
    for (const char *const *l = local_calls; *l; l++) {
        size_t n = strlen(*l);
        if ((*l)[n - 1] == '_' ? strncmp(name, *l, n) == 0 && len >= n
                               : n == len && strncmp(name, *l, n) == 0)
            return 1;
    }
    return 0;
}

double mc_hang_rma_credit_s(const char *name, uint64_t pending)
{
    static const char *const sync_calls[] = {
        "MPI_Win_fence", "MPI_Win_complete", "MPI_Win_wait", "MPI_Win_unlock",
        "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all", "MPI_Win_flush_local",
        "MPI_Win_flush_local_all", NULL};
    if (!name || pending == 0)
        return 0;
    for (const char *const *l = sync_calls; *l; l++)
        if (strcmp(name, *l) == 0)
            return 1.0 + (double)pending / MC_HANG_RMA_RATE;
    return 0;
}

double mc_hang_data_credit_s(uint64_t moving)
{
    return moving ? 1.0 + (double)moving / MC_HANG_DATA_RATE : 0;
}

int mc_hang_finishing(const mc_hang_rank *r, size_t n)
{
    mc_hang_state *st = malloc(n ? n * sizeof *st : 1);
    if (!st)
        return 0;
    mc_hang_states(r, n, st);
    int stuck = 0, finishing = 1;
    for (size_t i = 0; i < n && finishing; i++) {
        if (st[i] != MC_HANG_STUCK)
            continue;
        stuck = 1;
        finishing = r[i].in_finalize > 0 && r[i].in_finalize == r[i].in_mpi;
    }
    free(st);
    return stuck && finishing;
}

int mc_hang_starting(const mc_hang_rank *r, size_t n)
{
    mc_hang_state *st = malloc(n ? n * sizeof *st : 1);
    if (!st)
        return 0;
    mc_hang_states(r, n, st);
    int starting = 0;
    for (size_t i = 0; i < n && !starting; i++)
        starting = st[i] == MC_HANG_STUCK && r[i].in_init > 0 && r[i].in_init == r[i].in_mpi;
    free(st);
    return starting;
}

int mc_hang_all_known(const mc_hang_rank *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!job_complete(r, n, r[i].job))
            return 0;
    return n > 0;
}

void mc_hang_states(const mc_hang_rank *r, size_t n, mc_hang_state *out)
{
    for (size_t i = 0; i < n; i++) {
        const mc_hang_rank *x = &r[i];
        if (!x->alive || x->board_state == MC_BOARD_FINALIZED || x->board_state == MC_BOARD_EXITED)
            out[i] = MC_HANG_ENDED;
        else if (x->overflow || x->in_outside_wait > 0 || x->in_mpi < 1
                 || (!x->one_caller && x->in_mpi + x->joining < 1 + x->app_threads))
            out[i] = MC_HANG_FREE;
        else if (x->in_spawn > 0 && !spawn_children_there(r, n, x))
            out[i] = MC_HANG_FREE;
        else
            out[i] = MC_HANG_STUCK;
    }
}

int mc_hang_frozen(const mc_hang_rank *r, size_t n, int *missing, size_t max, size_t *nmissing)
{
    if (nmissing)
        *nmissing = 0;
    if (n == 0)
        return 0;
    mc_hang_state *st = malloc(n * sizeof *st);
    if (!st)
        return 0;
    mc_hang_states(r, n, st);
    int stuck = 0, all_in_init = 1, frozen = 1;
    for (size_t i = 0; i < n; i++) {
        if (st[i] == MC_HANG_FREE)
            frozen = 0;
        if (st[i] == MC_HANG_STUCK)
            stuck = 1;
        if (st[i] != MC_HANG_STUCK || r[i].in_init < r[i].in_mpi)
            all_in_init = 0;
    }
    free(st);
    if (!frozen || !stuck)
        return 0;
    /* Every job whose processes the boards show must be all there. */
    for (size_t i = 0; i < n; i++) {
        if (job_complete(r, n, r[i].job))
            continue;
        /* The first job's ranks that never called MPI_Init while all the
         * others wait inside it: nothing else can release MPI_Init. */
        if (!same_job(&r[i], "") || !all_in_init || r[i].world_size <= 0)
            return 0;
        size_t k = 0;
        for (int rank = 0; rank < r[i].world_size; rank++) {
            int seen = 0;
            for (size_t j = 0; j < n && !seen; j++)
                seen = same_job(&r[j], "") && r[j].rank == rank;
            if (!seen) {
                if (missing && k < max)
                    missing[k] = rank;
                k++;
            }
        }
        if (nmissing)
            *nmissing = k;
        return 1;
    }
    return 1;
}

size_t mc_hang_vanished(const mc_end_board *b, size_t n, char *vanished)
{
    size_t count = 0;
    memset(vanished, 0, n);
    for (size_t i = 0; i < n; i++) {
        if (b[i].in_abort) {
            memset(vanished, 0, n);
            return 0;
        }
        if (!b[i].known || b[i].alive)
            continue;
        int ended = b[i].board_state == MC_BOARD_FINALIZED || b[i].board_state == MC_BOARD_EXITED;
        if (ended && (!b[i].exit_known || b[i].exit_status != 0)) {
            memset(vanished, 0, n);
            return 0;
        }
        if (!ended && !b[i].exit_known) {
            vanished[i] = 1;
            count++;
        }
    }
    return count;
}
