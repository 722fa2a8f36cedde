/*
 * groups.c - MPI_Intercomm_create_from_groups (MPI-4.0 sec. 7.6.2): the
 * leaders' part of the check before the call. Each group's leader sends
 * its stringtag, its group's world ranks and its call to the process its
 * remote_group and remote_leader name, and the two compare as for
 * MPI_Intercomm_create (create.c): a stringtag that differs or groups that
 * overlap are reported before MPI would hang; a leader that names the wrong
 * process waits where the deadlock detector sees it.
 *
 * Not checked: that every member of a group names the same local_leader
 * and groups (there is no communicator of the group to compare them on,
 * only the groups the members pass), and the outcome after the call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inter_internal.h"
#include "report.h"
#include "skipped.h"
#include "state.h"

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
    ic_msg m = {.magic = IC_MAGIC, .stage = 1, .world = mc_st.world_rank, .lsize = nl,
                .textlen = (int32_t)strlen(text) + 1};
    snprintf(m.stringtag, sizeof m.stringtag, "%s", stag ? stag : "");
    ic_msg *got = ic_exchange(c, pw, &m, lr, text);
    if (got && got->stage == 1 && !got->invalid) {
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

void ic_from_groups_enter(mc_call *c)
{
    if (!mc_eng_on || mc_st.finalizing || mc_st.world_dup == MPI_COMM_NULL || c->invalid)
        return;
    int me = MPI_UNDEFINED, writer = 0;
    if (c->vals[0].group == MPI_GROUP_NULL || PMPI_Group_rank(c->vals[0].group, &me) != MPI_SUCCESS
        || me != c->vals[1].i)
        return;     /* only the local leader takes part */
    if (leader_check(c, &writer) == IC_V_MISMATCH)
        ic_after_mismatch(writer, "intercommunicator creation mismatch (MPI_Intercomm_create_from_groups "
                          "would hang; --abort-on-deadlock=no lets MPI go on)");
}
