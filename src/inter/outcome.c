/*
 * outcome.c - after MPI_Intercomm_create(_from_groups): whether every
 * process of both groups got the same intercommunicator, or every one an
 * error (seed 001). Each group gathers its members' outcomes into one
 * record (create.c: a reduction over the local communicator; groups.c:
 * messages to the leader), the two leaders exchange their records over
 * the checker's MPI_COMM_WORLD and judge alike, and each leader tells its
 * group the verdict.
 *
 * Fault injection for the tests: MPICHECK_INTERNAL_TEST_OUTCOME_FAIL=<world
 * rank> makes that rank's outcome count as an error in this judgement
 * only (MPI's result, and what the program sees, are unchanged), so the
 * agreement is tested end to end on MPIs that cannot survive a real fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inter_internal.h"
#include "report.h"
#include "skipped.h"
#include "state.h"

int32_t *ic_comm_ranks(MPI_Comm comm, int remote, int *n)
{
    MPI_Group g;
    *n = 0;
    if ((remote ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) != MPI_SUCCESS)
        return NULL;
    int32_t *r = ic_world_ranks(g, n);
    PMPI_Group_free(&g);
    return r;
}

/* Whether the test asks this rank's outcome to count as an error. */
static int injected_failure(void)
{
    const char *v = getenv("MPICHECK_INTERNAL_TEST_OUTCOME_FAIL");
    char *end;
    if (!v || !*v || mc_st.spawned)
        return 0;
    long r = strtol(v, &end, 10);
    return *end == 0 && r == mc_st.world_rank;
}

void ic_outcome_mine(ic_rec *r, int got, int64_t lhash, MPI_Comm nc)
{
    if (injected_failure())
        got = 0;
    ic_rec_init(r);
    ic_rec_put(r, OUT_OK, got);
    ic_rec_put(r, got ? OUT_OKW : OUT_FAILW, mc_st.world_rank);
    ic_rec_put(r, OUT_LHASH, lhash);
    if (got) {
        int n = 0;
        int32_t *rr = ic_comm_ranks(nc, 1, &n);
        ic_rec_put(r, OUT_RHASH, rr ? ic_ranks_hash(rr, n) : 0);
        free(rr);
    }
}

/* "in the group of world rank 2 (the leader), every process got an error". */
static void describe_group(const ic_rec *r, const char *who, char *buf, size_t len)
{
    int64_t lo, hi, wlo, whi;
    if (!ic_rec_get(r, OUT_OK, &lo, &hi))
        snprintf(buf, len, "in the group of %s, nothing is known", who);
    else if (lo == hi)
        snprintf(buf, len, "in the group of %s, every process got %s", who,
                 hi ? "an intercommunicator" : "an error");
    else if (ic_rec_get(r, OUT_FAILW, &wlo, &whi) && wlo == whi)
        snprintf(buf, len, "in the group of %s, world rank %lld got an error and the others an "
                 "intercommunicator", who, (long long)wlo);
    else if (ic_rec_get(r, OUT_FAILW, &wlo, &whi))
        snprintf(buf, len, "in the group of %s, some of world ranks %lld to %lld got an error and the "
                 "others an intercommunicator", who, (long long)wlo, (long long)whi);
}

/* Whether one group's record shows a split outcome, or another remote group. */
static int group_split(const ic_rec *r)
{
    int64_t a, b;
    return !ic_rec_uniform(r, OUT_OK) || (ic_rec_get(r, OUT_OK, &a, &b) && a && !ic_rec_uniform(r, OUT_RHASH));
}

int ic_outcome_leaders(mc_call *c, const ic_rec *r, int peer_world)
{
    int bad = group_split(r), writer = 1;
    ic_msg *their = NULL;
    char *text = NULL;
    if (peer_world >= 0 && (text = mc_malloc(IC_TEXT_MAX))) {
        mc_call_wire(c, text, IC_TEXT_MAX);
        ic_msg m = {.magic = IC_MAGIC, .stage = IC_STAGE_OUTCOME, .world = mc_st.world_rank,
                    .textlen = (int32_t)strlen(text) + 1, .out = *r};
        their = ic_exchange(c, peer_world, &m, NULL, text);
        if (their && their->stage != IC_STAGE_OUTCOME) {
            free(their);
            their = NULL;
        }
    }
    int64_t a, b;
    if (their) {
        const ic_rec *t = &their->out;
        bad |= group_split(t);
        if (!bad && ic_rec_get(r, OUT_OK, &a, &a) && ic_rec_get(t, OUT_OK, &b, &b)) {
            bad = a != b;
            if (!bad && a) {    /* both groups got it: each one's remote group is the other */
                int64_t mr, tr, ml, tl;
                bad = !ic_rec_get(r, OUT_RHASH, &mr, &mr) || !ic_rec_get(t, OUT_RHASH, &tr, &tr)
                      || !ic_rec_get(r, OUT_LHASH, &ml, &ml) || !ic_rec_get(t, OUT_LHASH, &tl, &tl)
                      || mr != tl || tr != ml;
            }
        }
        writer = mc_st.world_rank < their->world;
    }
    if (bad && writer) {
        char mine[300], other[300], who[64];
        snprintf(who, sizeof who, "world rank %d (the leader)", mc_st.world_rank);
        describe_group(r, who, mine, sizeof mine);
        other[0] = 0;
        if (their) {
            snprintf(who, sizeof who, "world rank %d (the other leader)", their->world);
            describe_group(&their->out, who, other, sizeof other);
        }
        mc_call_text *ct = their ? ic_their_call(their) : NULL;
        mc_report_with(MC_CLASS_INTERCOMM_NONUNIFORM, c, c->fn, NULL, ct, ct ? 1 : 0,
                       "%s ended differently across its processes: %s%s%s. A process that got the "
                       "intercommunicator waits forever in its first use of it with one that did not; a "
                       "uniform outcome needs agreement (seed 001)",
                       c->desc->name, mine, other[0] ? "; " : "", other);
        free(ct);
    }
    free(their);
    free(text);
    return bad;
}
