/*
 * create.c - MPI_Intercomm_create (MPI-3.1 sec. 6.6.2), checked before it
 * can hang and agreed on after it (seed 001).
 *
 * Before the real call: the local communicator's collective handshake
 * (src/coll/) has compared local_leader within each group. The leader then
 * sends what its group passes (tag, its group's world ranks, its call) to
 * the process it names as remote leader, over the checker's copy of
 * MPI_COMM_WORLD, and waits for that process's message in the engine's
 * wait loop. The leaders that name each other meet; a tag or group that
 * differs is reported at once; a leader that names another process waits
 * where the deadlock detector finds the cycle (it waits for that process,
 * its members for it). The leader's verdict reaches its group by a
 * broadcast on the local communicator's shadow.
 *
 * After it (the seed's algorithm): each group reduces what its members got
 * (an intercommunicator with which remote group, or an error), the leaders
 * exchange their group's outcome, and each leader broadcasts the verdict
 * in its group: every process of both groups knows whether all got the
 * same intercommunicator or all an error.
 *
 * Where the remote leader is not in this MPI_COMM_WORLD (a peer
 * communicator from MPI_Comm_spawn or connect/accept), the leaders have
 * no channel: only the checks within each group run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inter_internal.h"
#include "report.h"
#include "skipped.h"
#include "state.h"

/* From the call's enter to its leave (a blocking call: one per thread). */
static __thread struct {
    int active;             /* the check before the call ran: the outcome check runs after it */
    MPI_Comm flat;          /* local_comm's handshake communicator */
    int leader, leader_world, am_leader;
    int peer_world;         /* the remote leader's world rank; -1: no exchange */
    int64_t lhash;          /* this group's world ranks, hashed */
} cs;

/* The leaders compare what their groups pass. */
static int compare(mc_call *c, const ic_msg *mine, const int32_t *ranks, const ic_msg *got, int *writer)
{
    char a[128], b[128], msg[1024] = "";
    const int32_t *theirs = ic_msg_ranks(got);
    ic_ranks_text(ranks, mine->lsize, a, sizeof a);
    ic_ranks_text(theirs, got->lsize, b, sizeof b);
    if (mine->tag != got->tag) {
        snprintf(msg, sizeof msg, "MPI_Intercomm_create cannot complete: the two leaders pass different tags: "
                 "world rank %d (leader of world ranks %s) passes tag %d, world rank %d (leader of world "
                 "ranks %s) passes tag %d. The leaders' messages on peer_comm are matched by that tag, and "
                 "both groups would wait forever",
                 mine->world, a, mine->tag, got->world, b, got->tag);
    } else {
        int shared = ic_shared_rank(ranks, mine->lsize, theirs, got->lsize);
        if (shared >= 0)
            snprintf(msg, sizeof msg, "MPI_Intercomm_create with overlapping groups: world rank %d is in the "
                     "local group of world rank %d (world ranks %s) and in that of world rank %d (world "
                     "ranks %s); the two groups of an intercommunicator must be disjoint (MPI-3.1 sec. 6.6.2)",
                     shared, mine->world, a, got->world, b);
    }
    if (!msg[0])
        return IC_V_OK;
    *writer = mine->world < got->world;
    if (*writer) {
        mc_call_text *ct = ic_their_call(got);
        mc_report_with(MC_CLASS_INTERCOMM_MISMATCH, c, c->fn, NULL, ct, ct ? 1 : 0, "%s", msg);
        free(ct);
    }
    return IC_V_MISMATCH;
}

/* The leader's part before the call. */
static int leader_check(mc_call *c, MPI_Comm local, int *writer)
{
    MPI_Comm peer = c->vals[2].comm;
    int rl = c->vals[3].i, tag = c->vals[4].i, n = 0;
    *writer = 0;
    if (c->invalid)
        return IC_V_UNCHECKED;     /* reported by the argument checks */
    if (peer == MPI_COMM_NULL)
        return ic_mismatch_alone(c, writer, "MPI_Intercomm_create: the local leader passes MPI_COMM_NULL as "
                              "peer_comm; at the leader it must be a communicator that holds both leaders "
                              "(MPI-3.1 sec. 6.6.2), and the group would wait for it forever");
    int inter = 0;
    PMPI_Comm_test_inter(peer, &inter);
    int32_t *pr = ic_comm_ranks(peer, inter, &n);
    if (!pr)
        return IC_V_UNCHECKED;
    if (rl < 0 || rl >= n) {
        free(pr);
        return ic_mismatch_alone(c, writer, "MPI_Intercomm_create: the local leader passes remote_leader %d, "
                              "which is not a rank of peer_comm (%s of %d processes)", rl,
                              inter ? "an intercommunicator whose remote group has" : "a communicator", n);
    }
    int pw = pr[rl];
    free(pr);
    if (pw == MPI_UNDEFINED || pw < 0)
        return IC_V_UNCHECKED;     /* in another MPI_COMM_WORLD: no channel */
    if (pw == mc_st.world_rank)
        return ic_mismatch_alone(c, writer, "MPI_Intercomm_create: the local leader names itself as "
                              "remote_leader (rank %d of peer_comm); the remote leader must be in the other "
                              "group, and the call would wait forever", rl);
    int lsize = 0;
    int32_t *ranks = ic_comm_ranks(local, 0, &lsize);
    char *text = mc_malloc(IC_TEXT_MAX);
    if (!ranks || !text) {
        free(ranks);
        free(text);
        return IC_V_UNCHECKED;
    }
    for (int i = 0; i < lsize; i++)
        if (ranks[i] == pw) {
            free(ranks);
            free(text);
            return ic_mismatch_alone(c, writer, "MPI_Intercomm_create with overlapping groups: the local leader "
                                  "names world rank %d (rank %d of peer_comm) as remote_leader, but it is a "
                                  "member of the local group; the two groups of an intercommunicator must be "
                                  "disjoint (MPI-3.1 sec. 6.6.2), and the call would wait forever", pw, rl);
        }
    mc_call_wire(c, text, IC_TEXT_MAX);
    ic_msg m = {.magic = IC_MAGIC, .stage = IC_STAGE_LEADERS, .world = mc_st.world_rank, .tag = tag,
                .lsize = lsize, .textlen = (int32_t)strlen(text) + 1};
    ic_msg *got = ic_exchange(c, pw, &m, ranks, text);
    int v = IC_V_UNCHECKED;
    if (got && got->stage == IC_STAGE_LEADERS && !got->invalid) {
        v = compare(c, &m, ranks, got, writer);
        cs.peer_world = pw;
    }
    free(got);
    free(ranks);
    free(text);
    return v;
}

void ic_create_enter(mc_call *c)
{
    memset(&cs, 0, sizeof cs);
    cs.peer_world = -1;
    if (!mc_eng_on || mc_st.finalizing || mc_st.world_dup == MPI_COMM_NULL)
        return;
    if (mc_st.thread_level == MPI_THREAD_MULTIPLE) {
        /* Threads that create intercommunicators at once, between the
         * same leaders with the same tag (MPICH's threads/comm/
         * idup_comm_gen), pair their messages in any order, in MPI as in
         * the leaders' exchange: one thread's exchange took another's
         * message and the job hung in about one run in four. Skipped on
         * every process alike (the provided level is the job's), counted
         * as not checked; local_leader is still compared (coll/). */
        mc_skipped(MC_SKIP_COLL_HANDSHAKE);
        return;
    }
    MPI_Comm local = c->vals[0].comm;
    int leader = c->vals[1].i;
    mc_eng_lock();
    mc_pcomm *pc = mc_pcomm_get(local);
    MPI_Comm flat = pc && !pc->is_inter && !pc->coll_off ? pc->flat : MPI_COMM_NULL;
    int rank = pc ? pc->rank : -1, size = pc ? pc->size : 0;
    int lw = pc && leader >= 0 && leader < size ? mc_pcomm_world_rank(pc, leader) : -1;
    mc_eng_unlock();
    /* Every member takes the same path: the handshake agreed on leader. */
    if (flat == MPI_COMM_NULL || leader < 0 || leader >= size)
        return;
    cs.flat = flat;
    cs.leader = leader;
    cs.leader_world = lw;
    cs.am_leader = rank == leader;
    int n = 0;
    int32_t *ranks = ic_comm_ranks(local, 0, &n);
    cs.lhash = ranks ? ic_ranks_hash(ranks, n) : 0;
    free(ranks);
    int writer = 0, verdict = IC_V_UNCHECKED;
    if (cs.am_leader)
        verdict = leader_check(c, local, &writer);
    if (ic_bcast(c, &verdict, leader, flat, cs.am_leader ? -1 : lw) != 0)
        return;
    cs.active = 1;
    if (verdict == IC_V_MISMATCH)
        ic_after_mismatch(writer, "intercommunicator creation mismatch (MPI_Intercomm_create would hang; "
                          "--abort-on-deadlock=no lets MPI go on)");
}

void ic_create_leave(mc_call *c, int ok)
{
    if (!cs.active)
        return;
    cs.active = 0;
    MPI_Comm nc = ok && c->vals[5].p ? *(const MPI_Comm *)c->vals[5].p : MPI_COMM_NULL;
    ic_rec r;
    ic_outcome_mine(&r, ok && nc != MPI_COMM_NULL, cs.lhash, nc);
    if (ic_reduce(c, &r, cs.flat) != 0)
        return;
    int verdict = 0;
    if (cs.am_leader)
        verdict = ic_outcome_leaders(c, &r, cs.peer_world);
    if (ic_bcast(c, &verdict, cs.leader, cs.flat, cs.am_leader ? -1 : cs.leader_world) != 0)
        return;
    if (verdict)
        c->new_comm_unsafe = 1;      /* no collective over it: not every process has it */
}
