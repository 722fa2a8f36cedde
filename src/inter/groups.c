/*
 * groups.c - MPI_Intercomm_create_from_groups (MPI-4.0 sec. 7.6.2), checked
 * before the call. The members of a group share no communicator, only the
 * groups they pass, so the check runs as messages on the checker's copy of
 * MPI_COMM_WORLD: every member sends what it passes (the leaders it names,
 * its groups, its stringtag, its call) to the local leader it names; the
 * leader compares them with its own, then exchanges with the remote leader
 * as for MPI_Intercomm_create (create.c: stringtag, disjoint groups), and
 * sends its verdict back to each member. A member that names another
 * leader, or a leader that names the wrong remote leader, waits where the
 * deadlock detector finds the cycle.
 *
 * After the call, the outcome the same way: each member sends its outcome
 * to its leader, the leaders exchange their group's (outcome.c) and send
 * the verdict back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inter_internal.h"
#include "report.h"
#include "skipped.h"
#include "state.h"

/* From the check before the call to the outcome after it (a blocking call:
 * one per thread). */
static __thread struct {
    int active;         /* the check before the call found every argument in order */
    int me, leader;     /* this process and the leader, ranks in the local group */
    int32_t *lr;        /* the local group's world ranks */
    int nl;
    int peer_world;     /* the leader: the other leader's world rank */
    int64_t lhash;
} fg;

static int32_t *group_ranks(MPI_Group g, int *n)
{
    return g == MPI_GROUP_NULL ? NULL : ic_world_ranks(g, n);
}

static int leader_check(mc_call *c, int *writer)
{
    MPI_Group lg = c->vals[0].group, rg = c->vals[2].group;
    int rl = c->vals[3].i, nl = 0, nr = 0;
    const char *stag = c->vals[4].p;
    int32_t *lr = group_ranks(lg, &nl), *rr = group_ranks(rg, &nr);
    int v = IC_V_UNCHECKED;
    char *text = NULL;
    if (!lr || !rr || rl < 0 || rl >= nr || rr[rl] == MPI_UNDEFINED)
        goto out;   /* bad arguments (the argument checks' and MPI's), or another MPI_COMM_WORLD */
    int pw = rr[rl], shared = ic_shared_rank(lr, nl, rr, nr);
    if (shared >= 0) {
        v = ic_mismatch_alone(c, writer, "MPI_Intercomm_create_from_groups with overlapping groups: world "
                              "rank %d is in both local_group and remote_group; they must be disjoint "
                              "(MPI-4.0 sec. 7.6.2), and the call would wait forever", shared);
        goto out;
    }
    if (!(text = mc_malloc(IC_TEXT_MAX)))
        goto out;
    mc_call_wire(c, text, IC_TEXT_MAX);
    ic_msg m = {.magic = IC_MAGIC, .stage = IC_STAGE_LEADERS, .world = mc_st.world_rank, .lsize = nl,
                .textlen = (int32_t)strlen(text) + 1};
    snprintf(m.stringtag, sizeof m.stringtag, "%s", stag ? stag : "");
    ic_msg *got = ic_exchange(c, pw, &m, lr, text);
    if (got && got->stage == IC_STAGE_LEADERS && !got->invalid) {
        char a[128], b[128];
        const int32_t *theirs = ic_msg_ranks(got);
        ic_ranks_text(lr, nl, a, sizeof a);
        ic_ranks_text(theirs, got->lsize, b, sizeof b);
        got->stringtag[sizeof got->stringtag - 1] = 0;
        int share = ic_shared_rank(lr, nl, theirs, got->lsize);
        char msg[1024] = "";
        if (strcmp(m.stringtag, got->stringtag) != 0)
            snprintf(msg, sizeof msg, "MPI_Intercomm_create_from_groups cannot complete: the two leaders pass "
                     "different stringtag values: world rank %d (leader of world ranks %s) passes \"%s\", world "
                     "rank %d (leader of world ranks %s) passes \"%s\"; both groups would wait forever",
                     m.world, a, m.stringtag, got->world, b, got->stringtag);
        else if (share >= 0)
            snprintf(msg, sizeof msg, "MPI_Intercomm_create_from_groups with overlapping groups: world rank "
                     "%d is in the local group of world rank %d (world ranks %s) and in that of world rank "
                     "%d (world ranks %s)", share, m.world, a, got->world, b);
        v = IC_V_OK;
        if (msg[0]) {
            v = IC_V_MISMATCH;
            *writer = m.world < got->world;
            if (*writer) {
                mc_call_text *ct = ic_their_call(got);
                mc_report_with(MC_CLASS_INTERCOMM_MISMATCH, c, c->fn, NULL, ct, ct ? 1 : 0, "%s", msg);
                free(ct);
            }
        }
    }
    free(got);
out:
    free(text);
    free(lr);
    free(rr);
    return v;
}

/* "local_leader 0 and another local_group": how member m's arguments
 * differ from the leader's own (mine); "" when they agree. */
static void member_differs(const ic_msg *mine, const ic_msg *m, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
#define ADD(...) do { if (at < len) { int w_ = snprintf(buf + at, len - at, __VA_ARGS__); \
                                       if (w_ > 0) at += (size_t)w_; } } while (0)
    if (m->lleader != mine->lleader)
        ADD("%slocal_leader %d", at ? ", " : "", m->lleader);
    if (m->rleader != mine->rleader)
        ADD("%sremote_leader %d", at ? ", " : "", m->rleader);
    if (m->lhash != mine->lhash)
        ADD("%sanother local_group", at ? ", " : "");
    if (m->rhash != mine->rhash)
        ADD("%sanother remote_group", at ? ", " : "");
    if (strcmp(m->stringtag, mine->stringtag) != 0)
        ADD("%sstringtag \"%s\"", at ? ", " : "", m->stringtag);
#undef ADD
}

/* The leader: every member's message, then the exchange with the other
 * leader. */
static int leader_side(mc_call *c, const ic_msg *mine, const int32_t *lr, int nl, int me, int *writer)
{
    int v = IC_V_OK;
    for (int i = 0; i < nl; i++) {
        if (i == me)
            continue;
        ic_msg *got = ic_receive(c, lr[i]);
        if (!got || got->stage != IC_STAGE_MEMBER) {
            free(got);
            v = v == IC_V_OK ? IC_V_UNCHECKED : v;
            continue;
        }
        got->stringtag[sizeof got->stringtag - 1] = 0;
        char what[256];
        member_differs(mine, got, what, sizeof what);
        if (what[0] && v != IC_V_MISMATCH) {
            mc_call_text *ct = ic_their_call(got);
            mc_report_with(MC_CLASS_INTERCOMM_MISMATCH, c, c->fn, NULL, ct, ct ? 1 : 0,
                           "MPI_Intercomm_create_from_groups: the processes of one group pass different "
                           "arguments: world rank %d passes %s, where its local leader, world rank %d, "
                           "passes local_leader %d, remote_leader %d and stringtag \"%s\". Every process of "
                           "a group must pass the same groups, leaders and stringtag (MPI-4.0 sec. 7.6.2), "
                           "and the call would wait forever",
                           got->world, what, mc_st.world_rank, mine->lleader, mine->rleader, mine->stringtag);
            free(ct);
            *writer = 1;
            v = IC_V_MISMATCH;
        }
        free(got);
    }
    if (v == IC_V_OK)
        v = leader_check(c, writer);
    return v;
}

void ic_from_groups_enter(mc_call *c)
{
    free(fg.lr);
    memset(&fg, 0, sizeof fg);
    if (!mc_eng_on || mc_st.finalizing || mc_st.world_dup == MPI_COMM_NULL || c->invalid)
        return;
    if (mc_st.thread_level == MPI_THREAD_MULTIPLE) {
        /* As for MPI_Intercomm_create (create.c): concurrent creations
         * from several threads would take each other's messages. */
        mc_skipped(MC_SKIP_COLL_HANDSHAKE);
        return;
    }
    MPI_Group lg = c->vals[0].group, rg = c->vals[2].group;
    int ll = c->vals[1].i, rl = c->vals[3].i, me = MPI_UNDEFINED, nl = 0, nr = 0, writer = 0;
    const char *stag = c->vals[4].p;
    if (lg == MPI_GROUP_NULL || PMPI_Group_rank(lg, &me) != MPI_SUCCESS || me == MPI_UNDEFINED)
        return;
    int32_t *lr = group_ranks(lg, &nl), *rr = group_ranks(rg, &nr);
    char *text = mc_malloc(IC_TEXT_MAX);
    int usable = lr && rr && text && ll >= 0 && ll < nl && rl >= 0 && rl < nr;
    for (int i = 0; usable && i < nl; i++)
        usable = lr[i] != MPI_UNDEFINED;    /* a group of this MPI_COMM_WORLD: the same at every member */
    int v = IC_V_UNCHECKED;
    if (usable) {
        mc_call_wire(c, text, IC_TEXT_MAX);
        ic_msg m = {.magic = IC_MAGIC, .stage = IC_STAGE_MEMBER, .world = mc_st.world_rank,
                    .textlen = (int32_t)strlen(text) + 1, .lleader = ll, .rleader = rl,
                    .lhash = ic_ranks_hash(lr, nl), .rhash = ic_ranks_hash(rr, nr)};
        snprintf(m.stringtag, sizeof m.stringtag, "%s", stag ? stag : "");
        if (me != ll) {
            ic_msg *got = ic_send(c, lr[ll], &m, NULL, text) == 0 ? ic_receive(c, lr[ll]) : NULL;
            if (got && got->stage == IC_STAGE_VERDICT)
                v = got->verdict;
            free(got);
        } else {
            v = leader_side(c, &m, lr, nl, me, &writer);
            ic_msg verdict = {.magic = IC_MAGIC, .stage = IC_STAGE_VERDICT, .world = mc_st.world_rank,
                              .verdict = v};
            for (int i = 0; i < nl; i++)
                if (i != me)
                    ic_send(c, lr[i], &verdict, NULL, NULL);
        }
    }
    free(text);
    if (v == IC_V_OK) {     /* the same verdict at every member of both groups */
        fg = (__typeof__(fg)){.active = 1, .me = me, .leader = ll, .lr = lr, .nl = nl,
                              .peer_world = rr[rl], .lhash = ic_ranks_hash(lr, nl)};
        lr = NULL;
    }
    free(lr);
    free(rr);
    if (v == IC_V_MISMATCH)
        ic_after_mismatch(writer, "intercommunicator creation mismatch (MPI_Intercomm_create_from_groups "
                          "would hang; --abort-on-deadlock=no lets MPI go on)");
}

void ic_from_groups_leave(mc_call *c, int ok)
{
    if (!fg.active)
        return;
    fg.active = 0;
    MPI_Comm nc = ok && c->vals[7].p ? *(const MPI_Comm *)c->vals[7].p : MPI_COMM_NULL;
    ic_rec r;
    ic_outcome_mine(&r, ok && nc != MPI_COMM_NULL, fg.lhash, nc);
    int verdict = 0;
    if (fg.me != fg.leader) {
        ic_msg m = {.magic = IC_MAGIC, .stage = IC_STAGE_OUTCOME, .world = mc_st.world_rank, .out = r};
        int leader = fg.lr[fg.leader];
        ic_msg *got = ic_send(c, leader, &m, NULL, NULL) == 0 ? ic_receive(c, leader) : NULL;
        if (got && got->stage == IC_STAGE_VERDICT)
            verdict = got->verdict;
        free(got);
    } else {
        for (int i = 0; i < fg.nl; i++) {
            if (i == fg.me)
                continue;
            ic_msg *got = ic_receive(c, fg.lr[i]);
            if (got && got->stage == IC_STAGE_OUTCOME)
                ic_rec_merge(&r, &got->out);
            free(got);
        }
        verdict = ic_outcome_leaders(c, &r, fg.peer_world);
        ic_msg m = {.magic = IC_MAGIC, .stage = IC_STAGE_VERDICT, .world = mc_st.world_rank, .verdict = verdict};
        for (int i = 0; i < fg.nl; i++)
            if (i != fg.me)
                ic_send(c, fg.lr[i], &m, NULL, NULL);
    }
    free(fg.lr);
    fg.lr = NULL;
    if (verdict)
        c->new_comm_unsafe = 1;      /* no collective over it: not every process has it */
}
