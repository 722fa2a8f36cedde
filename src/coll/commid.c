/*
 * commid.c - what the collective handshakes need of each communicator: an
 * id all members agree on, and where to run the handshake.
 *
 * The id names a collective instance in the deadlock detector: (id, number
 * of collectives so far) is the same on every member that reached the same
 * collective. It costs no communication for intracommunicators: a new
 * communicator's id mixes its parent's id, the parent's collective count at
 * the creating call (a collective, so equal everywhere) and the lowest world
 * rank of the new group (which tells apart the parts of one MPI_Comm_split).
 * Two communicators that end up with one id can only make the detector
 * think a member reached a collective it did not: a missed report, never a
 * false one.
 *
 * Intercommunicators: the two groups have different parents, so their id is
 * agreed with one reduction; and the handshakes run on the merge of the
 * shadow (MPI_Intercomm_merge), where both groups' records meet in one
 * reduction.
 */
#include <sched.h>
#include <stdlib.h>
#include "coll_internal.h"
#include "skipped.h"
#include "runtime.h"
#include "state.h"

static int min_world_rank(MPI_Group g)
{
    MPI_Group wg;
    int n = 0, lo = -1;
    if (PMPI_Group_size(g, &n) != MPI_SUCCESS || n <= 0 || PMPI_Comm_group(MPI_COMM_WORLD, &wg) != MPI_SUCCESS)
        return -1;
    int *in = mc_malloc((size_t)n * sizeof *in), *out = mc_malloc((size_t)n * sizeof *out);
    if (in && out) {
        for (int i = 0; i < n; i++)
            in[i] = i;
        if (PMPI_Group_translate_ranks(g, n, in, wg, out) == MPI_SUCCESS)
            for (int i = 0; i < n; i++)
                if (out[i] != MPI_UNDEFINED && (lo < 0 || out[i] < lo))
                    lo = out[i];
    }
    free(in);
    free(out);
    PMPI_Group_free(&wg);
    return lo;
}

static int comm_min_world(MPI_Comm comm, int remote)
{
    MPI_Group g;
    if ((remote ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) != MPI_SUCCESS)
        return -1;
    int lo = min_world_rank(g);
    PMPI_Group_free(&g);
    return lo;
}

/* The predefined communicators, at start. */
void mc_coll_comm_predefined(mc_pcomm *pc, int self)
{
    pc->cid = self ? mc_collrec_mix(2, (uint64_t)mc_st.world_rank) : mc_collrec_mix(1, 0);
    pc->flat = pc->shadow;
    pc->flat_rank = pc->rank;
    pc->flat_size = pc->size;
    if (!self)
        mc_hs_reserve_fill();
}

/* Starts the copy of an idup'ed intercommunicator's flat (now, or from
 * the queue of its parent's flat). */
static int start_flat_copy(void *ctx)
{
    mc_pcomm *pc = ctx;
    int rc = PMPI_Comm_idup(pc->flat_of, &pc->flat_next, &pc->flat_req);
    if (rc != MPI_SUCCESS) {
        pc->flat_next = MPI_COMM_NULL;
        pc->flat_req = MPI_REQUEST_NULL;
        pc->flat_copy = MC_FLAT_NONE;
        pc->coll_off = 1;
        return rc;
    }
    pc->flat_copy = MC_FLAT_COPYING;
    mc_sq_copy_started_req(pc->flat_of, pc, &pc->flat_req);
    return rc;
}

/* MPI_Comm_idup of an intercommunicator: a merge of the new shadow would
 * block, and the new handle may not be used before the request completes.
 * Its flat is a nonblocking copy of the parent's flat instead (the same
 * processes in the same order), queued like the shadow's copy
 * (shadow_queue.c) and taken at the communicator's first use; its id
 * comes from the parent's, as an intracommunicator's does. */
static void inter_idup_created(mc_call *c, mc_pcomm *pc)
{
    int rc = MPI_SUCCESS;
    mc_eng_lock();
    mc_pcomm *pp = mc_pcomm_get(c->vals[0].comm);
    if (!pp || !pp->is_inter || pp->coll_off || pp->flat == MPI_COMM_NULL) {
        pc->coll_off = 1;
        mc_eng_unlock();
        return;
    }
#if defined(MPICH_VERSION) && !defined(OPEN_MPI)
    if (mc_st.thread_level == MPI_THREAD_MULTIPLE) {
        /* MPICH, threads that idup intercommunicators at once: the flat
         * copies the checker adds (nonblocking context-id allocations on
         * the parents' flats, interleaved across threads) left MPICH's
         * threads/comm/idup_nb hanging inside the application's
         * MPI_Comm_idup on every run, where it passes plainly in 24 s.
         * No handshake on such a communicator, counted as not checked. */
        pc->coll_off = 1;
        mc_skipped(MC_SKIP_COLL_HANDSHAKE);
        mc_eng_unlock();
        return;
    }
#endif
    pc->group = pp->group;
    pc->cid = mc_collrec_mix(mc_collrec_mix(pp->cid, pp->coll_seq), (uint64_t)c->fn);
    pc->flat_of = pp->flat;
    pc->flat_copy = MC_FLAT_QUEUED;
    if (mc_sq_submit(pp->flat, start_flat_copy, pc, &rc) && rc != MPI_SUCCESS)
        mc_skipped(MC_SKIP_COLL_HANDSHAKE);
    mc_eng_unlock();
}

/* Waits for an idup'ed intercommunicator's flat copy (the application's
 * request has completed, so every member has started it) and takes it. */
static void inter_flat_wait(mc_pcomm *pc)
{
    while (pc->flat_copy == MC_FLAT_QUEUED || (pc->flat_copy == MC_FLAT_COPYING && pc->flat_req != MPI_REQUEST_NULL)) {
        mc_sq_drive();
        int flag = 1;
        if (pc->flat_copy == MC_FLAT_QUEUED) {
            flag = 0;
        } else if (pc->flat_req != MPI_REQUEST_NULL
                   && PMPI_Test(&pc->flat_req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            pc->flat_req = MPI_REQUEST_NULL;
            pc->flat_next = MPI_COMM_NULL;
            flag = 1;
        }
        if (!flag) {
            mc_eng_unlock();
            sched_yield();
            mc_eng_lock();
        }
    }
    if (pc->flat_copy == MC_FLAT_COPYING && pc->flat_next != MPI_COMM_NULL) {
        pc->flat = pc->flat_next;
        PMPI_Comm_rank(pc->flat, &pc->flat_rank);
        PMPI_Comm_size(pc->flat, &pc->flat_size);
    } else if (pc->flat_copy != MC_FLAT_NONE) {
        pc->coll_off = 1;
    }
    pc->flat_next = MPI_COMM_NULL;
    pc->flat_copy = MC_FLAT_NONE;
    mc_sq_forget(pc);   /* its copy entries: the shadow's ended before this */
}

/* A communicator the application made in call c (its shadow exists). */
void mc_coll_comm_created(mc_call *c, mc_pcomm *pc)
{
    static uint64_t inter_counter;
    if (pc->shadow_state != MC_SHADOW_READY && pc->is_inter) {
        inter_idup_created(c, pc);
        return;
    }
    if (pc->is_inter && !pc->coll_off) {
        int lo_local = comm_min_world(pc->comm, 0), lo_remote = comm_min_world(pc->comm, 1);
        /* The remote group in another MPI_COMM_WORLD (spawned processes, or
         * their parents): the parents come first. */
        pc->group = lo_local < 0 || lo_remote < 0 ? c->fn == MC_FN_MPI_Comm_get_parent
                                                   : lo_local < lo_remote ? 0 : 1;
        if (PMPI_Intercomm_merge(pc->shadow, pc->group, &pc->flat) != MPI_SUCCESS) {
            pc->flat = MPI_COMM_NULL;
            pc->coll_off = 1;
            return;
        }
        PMPI_Comm_rank(pc->flat, &pc->flat_rank);
        PMPI_Comm_size(pc->flat, &pc->flat_size);
        uint64_t mine = inter_counter, agreed = 0;
        if (PMPI_Allreduce(&mine, &agreed, 1, MPI_UINT64_T, MPI_MAX, pc->flat) != MPI_SUCCESS)
            agreed = mine;
        inter_counter = agreed + 1;
        int lo = lo_local < lo_remote ? lo_local : lo_remote;
        pc->cid = mc_collrec_mix(mc_collrec_mix(3, (uint64_t)lo), agreed);
        return;
    }
    /* An intracommunicator: from its parent. */
    const mc_coll_fn *f = mc_coll_fn_of(c->fn);
    MPI_Comm parent = MPI_COMM_NULL;
    uint64_t salt = (uint64_t)c->fn;
    if (f && !f->comm_ptr)
        parent = c->vals[f->a_comm].comm;
    else if (c->fn == MC_FN_MPI_Comm_create_group) {
        parent = c->vals[0].comm;
        salt = mc_collrec_mix(salt, (uint64_t)(int64_t)c->vals[2].i);   /* its tag */
    }
    /* The engine's table under its lock: this runs after the engine let
     * go of it (a collective call), and other threads may be in it. */
    mc_eng_lock();
    mc_pcomm *pp = parent != MPI_COMM_NULL ? mc_pcomm_get(parent) : NULL;
    uint64_t base = pp ? mc_collrec_mix(pp->cid, pp->coll_seq) : mc_collrec_mix(4, salt);
    mc_eng_unlock();
    /* An idup's new handle may not be queried yet (same group as the parent). */
    int idup = c->fn == MC_FN_MPI_Comm_idup || c->fn == MC_FN_MPI_Comm_idup_with_info;
    int lo = idup ? -1 : comm_min_world(pc->comm, 0);
    pc->cid = mc_collrec_mix(mc_collrec_mix(base, salt), (uint64_t)(int64_t)lo);
    if (pc->shadow_state == MC_SHADOW_READY)
        mc_coll_comm_ready(pc);
    /* A topology communicator: its twin, for neighbor collectives (neighbor.c). */
    mc_nbr_comm_created(c, pc);
}

/* The shadow is usable (at once, or when an idup completed). */
void mc_coll_comm_ready(mc_pcomm *pc)
{
    if (pc->is_inter && pc->flat_copy != MC_FLAT_NONE)
        inter_flat_wait(pc);
    mc_hs_p2p_wait(pc);     /* MPI_Finalize: the handshakes' copy (hs_p2p.c) */
    if (pc->is_inter || pc->flat != MPI_COMM_NULL)
        return;
    pc->flat = pc->shadow;
    pc->flat_rank = pc->rank;
    pc->flat_size = pc->size;
}

/* Communicators the checker made for one the application freed (its
 * shadow, an intercommunicator's merge) while a nonblocking collective's
 * handshake still runs on them. MPI lets pending operations finish after a
 * free (MPI-3.1 sec. 6.4.3), but Open MPI 4.1's libnbc then progresses the
 * freed communicator's schedule into a crash; so they are freed when their
 * last handshake has ended. */
typedef struct retired {
    MPI_Comm comm;
    struct retired *next;
} retired_t;
static retired_t *retired;

void mc_coll_release_comm(MPI_Comm *comm)
{
    if (*comm == MPI_COMM_NULL)
        return;
    if (mc_coll_comm_busy(*comm)) {
        retired_t *r = mc_malloc(sizeof *r);
        if (r) {        /* without memory it is left, never freed under a handshake */
            r->comm = *comm;
            r->next = retired;
            retired = r;
        }
        *comm = MPI_COMM_NULL;
        return;
    }
    PMPI_Comm_free(comm);
}

void mc_coll_free_retired(void)
{
    if (!retired)
        return;
    for (retired_t **pp = &retired; *pp;) {
        retired_t *r = *pp;
        if (mc_coll_comm_busy(r->comm)) {
            pp = &r->next;
            continue;
        }
        *pp = r->next;
        PMPI_Comm_free(&r->comm);
        free(r);
    }
}

/* The application frees the communicator: the merged handshake comm goes too. */
void mc_coll_comm_freed(mc_pcomm *pc)
{
    if (pc->flat_copy != MC_FLAT_NONE)
        inter_flat_wait(pc);    /* never freed, nor forgotten, while MPI copies it */
    mc_nbr_comm_freed(pc);
    mc_hs_p2p_comm_freed(pc);
    /* Freed, never disconnected, even when the program disconnects a
     * communicator between two jobs: Open MPI 4.1 hangs in the
     * disconnect of an intracommunicator merged from such an
     * intercommunicator (in its PMIx fence, without the checker too); the
     * disconnect of the shadow (comms.c) is what parts the jobs. */
    if (pc->is_inter && pc->flat != MPI_COMM_NULL)
        mc_coll_release_comm(&pc->flat);
    pc->flat = MPI_COMM_NULL;
}
