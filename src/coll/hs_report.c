/*
 * hs_report.c - what a collective handshake reports: the short summary of
 * each member's call, taken in the call; the details every member sends
 * to one member after the reduction showed a disagreement; and the finding
 * that member writes (handshake.c runs the stages).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coll_internal.h"
#include "skipped.h"
#include "calltext.h"
#include "runtime.h"
#include "report.h"
#include "state.h"
#include "typesig.h"

#define DETAIL_MAX 6000

static void append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

/* "MPI_Bcast(root 0, buffer 4 MPI_INT)": what a member called, in short. */
void mc_hs_summarize(hs_t *h, const mc_call *c)
{
    const mc_coll_fn *f = h->f;
    char *s = h->summary, part[96];
    size_t cap = sizeof h->summary;
    snprintf(s, cap, "%s(", c->desc->name);
    const char *sepr = "";
    if (f->a_root >= 0) {
        int r = h->root_arg;
        const char *rname = c->desc->params[f->a_root].name;   /* "root", "local_leader" */
        if (r == MPI_ROOT) append(s, cap, "%s MPI_ROOT", rname);
        else if (r == MPI_PROC_NULL) append(s, cap, "%s MPI_PROC_NULL", rname);
        else append(s, cap, "%s %d", rname, r);
        sepr = ", ";
    }
    if (f->a_op >= 0) {
        char *op = mc_render_value(&c->desc->params[f->a_op], &c->vals[f->a_op]);
        append(s, cap, "%sop %s", sepr, op ? op : "?");
        free(op);
        sepr = ", ";
    }
    if (!c->invalid && f->shape == MC_SH_NEIGHBOR && f->nbr != MC_NBR_NONE) {
        /* Counts per edge: one for all edges, or an array of them. */
        int sarr = f->nbr == MC_NBR_ALLTOALLV || f->nbr == MC_NBR_ALLTOALLW;
        int rarr = sarr || f->nbr == MC_NBR_ALLGATHERV;
        if (sarr) {
            append(s, cap, "%ssendcounts per neighbor", sepr);
        } else {
            mc_typesig_render(c->vals[f->a_stype].type, (uint64_t)mc_arg_count(c, f->a_scount), part, sizeof part);
            append(s, cap, "%ssends %s per neighbor", sepr, part);
        }
        if (rarr) {
            append(s, cap, ", recvcounts per neighbor");
        } else {
            mc_typesig_render(c->vals[f->a_rtype].type, (uint64_t)mc_arg_count(c, f->a_rcount), part, sizeof part);
            append(s, cap, ", receives %s per neighbor", part);
        }
    }
    if (!c->invalid && f->shape != MC_SH_BARRIER && f->shape != MC_SH_NEIGHBOR) {
        /* Only arguments significant at this member are read (a non-root's
         * recvtype of MPI_Gather may be anything). */
        int sig_s = 1, sig_r = 1;
        int is_root = h->inter ? h->root_arg == MPI_ROOT : h->root_arg == h->comm_rank;
        int other = h->inter && h->root_arg != MPI_ROOT && h->root_arg != MPI_PROC_NULL;
        if (h->inter && h->root_arg == MPI_PROC_NULL && f->a_root >= 0)
            sig_s = sig_r = 0;
        switch (f->shape) {
        case MC_SH_GATHER: case MC_SH_GATHERV:
            sig_r = is_root;
            sig_s = h->inter ? other : 1;
            break;
        case MC_SH_SCATTER: case MC_SH_SCATTERV:
            sig_s = is_root;
            sig_r = h->inter ? other : 1;
            break;
        default:
            break;
        }
        int scalar_s = sig_s && f->a_scount >= 0 && c->desc->params[f->a_scount].ctype != MC_CT_PTR;
        int scalar_r = sig_r && f->a_rcount >= 0 && c->desc->params[f->a_rcount].ctype != MC_CT_PTR;
        const void *sb = f->a_sbuf >= 0 ? c->vals[f->a_sbuf].p : NULL;
        if (sb == MPI_IN_PLACE)
            scalar_s = 0;
        if (f->a_scount == f->a_rcount && (scalar_s || (sb == MPI_IN_PLACE && scalar_r))) {
            int k = scalar_s ? f->a_stype : f->a_rtype;
            mc_typesig_render(c->vals[k].type, (uint64_t)mc_arg_count(c, f->a_scount), part, sizeof part);
            append(s, cap, "%s%s%s", sepr, sb == MPI_IN_PLACE ? "in place, " : "", part);
        } else {
            if (sb == MPI_IN_PLACE)
                append(s, cap, "%ssendbuf MPI_IN_PLACE", sepr);
            else if (scalar_s && f->a_stype >= 0) {
                mc_typesig_render(c->vals[f->a_stype].type, (uint64_t)mc_arg_count(c, f->a_scount), part, sizeof part);
                append(s, cap, "%ssends %s", sepr, part);
            } else if (f->a_scount >= 0 && sig_s) {
                append(s, cap, "%ssendcounts per rank", sepr);
            }
            sepr = ", ";
            if (scalar_r && f->a_rtype >= 0) {
                mc_typesig_render(c->vals[f->a_rtype].type, (uint64_t)mc_arg_count(c, f->a_rcount), part, sizeof part);
                append(s, cap, "%sreceives %s", sepr, part);
            } else if (f->a_rcount >= 0 && sig_r) {
                append(s, cap, "%srecvcounts per rank", sepr);
            }
        }
    }
    append(s, cap, ")");
}

/* This member's call as a report shows it: from the call itself (blocking)
 * or from what was taken in it (nonblocking). */
static void own_call(hs_t *h, mc_call_text *ct)
{
    memset(ct, 0, sizeof *ct);
    if (h->call) {
        mc_hs_summarize(h, h->call);
        mc_report_fill_call(ct, h->call);
    } else {
        mc_report_fill_origin(ct, &h->origin);
    }
}

int mc_hs_start_details(hs_t *h)
{
    mc_call_text ct;
    own_call(h, &ct);
    h->dmine = mc_malloc(DETAIL_MAX);
    if (!h->dmine)
        return -1;
    int head = snprintf(h->dmine, DETAIL_MAX, "%d\t%d\t%s\t%s%s%s\n", mc_st.world_rank, h->comm_rank,
                        mc_st.job, h->summary, h->vnote[0] ? ": " : "", h->vnote);
    if (head < 0 || head >= DETAIL_MAX)
        head = 0;
    mc_calltext_serialize(&ct, h->dmine + head, (size_t)(DETAIL_MAX - head));
    mc_finding tmp = {.calls = mc_malloc(sizeof ct), .ncalls = 1};
    if (tmp.calls) {
        tmp.calls[0] = ct;
        mc_finding_clear(&tmp);
    }
    h->dlen = (int)strlen(h->dmine) + 1;
    if (h->flat_rank == 0 && !(h->dlens = mc_calloc((size_t)h->flat_size, sizeof(int))))
        return -1;
    return PMPI_Igather(&h->dlen, 1, MPI_INT, h->dlens, 1, MPI_INT, 0, h->flat, &h->req);
}

int mc_hs_start_details_data(hs_t *h)
{
    if (h->flat_rank == 0) {
        h->ddispls = mc_calloc((size_t)h->flat_size, sizeof(int));
        long total = 0;
        for (int i = 0; h->ddispls && i < h->flat_size; i++) {
            h->ddispls[i] = (int)total;
            total += h->dlens[i];
        }
        h->dall = h->ddispls ? mc_malloc((size_t)total + 1) : NULL;
        if (!h->dall) {
            /* Still take part, receiving nothing (counts of zero). */
            for (int i = 0; i < h->flat_size; i++)
                h->dlens[i] = 0;
        }
    }
    return PMPI_Igatherv(h->dmine, h->dlen, MPI_CHAR, h->dall, h->dlens, h->ddispls, MPI_CHAR, 0,
                         h->flat, &h->req);
}

typedef struct {
    int world, crank;
    char job[48];       /* whose MPI_COMM_WORLD (mc_st.job) */
    char *summary;      /* points into the gathered text */
    const char *site;
    char sitebuf[128];
    const char *calltext;
} member_t;

static void site_of(member_t *m, const mc_call_text *ct)
{
    m->site = mc_call_site_text(ct, m->sitebuf, sizeof m->sitebuf);
}

/* The member of flat rank 0: one finding, every distinct call once. */
void mc_hs_write_finding(hs_t *h)
{
    if (!h->dall || !h->dlens)
        return;
    int n = h->flat_size;
    member_t *m = mc_calloc((size_t)n, sizeof *m);
    mc_call_text *cts = mc_calloc((size_t)n, sizeof *cts);
    int *group = mc_calloc((size_t)n, sizeof *group);
    char *msg = mc_calloc(1, 8192), desc[256];
    if (!m || !cts || !group || !msg)
        goto out;
    for (int i = 0; i < n; i++) {
        char *t = h->dall + h->ddispls[i];
        if (h->dlens[i] <= 0)
            continue;
        t[h->dlens[i] - 1] = 0;
        char *nl = strchr(t, '\n');
        if (!nl)
            continue;
        *nl = 0;
        m[i].world = atoi(t);
        char *tab = strchr(t, '\t');
        m[i].crank = tab ? atoi(tab + 1) : -1;
        char *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
        char *tab3 = tab2 ? strchr(tab2 + 1, '\t') : NULL;
        if (tab3)
            snprintf(m[i].job, sizeof m[i].job, "%.*s", (int)(tab3 - tab2 - 1), tab2 + 1);
        m[i].summary = tab3 ? tab3 + 1 : t;
        m[i].calltext = nl + 1;
        mc_calltext_parse(m[i].calltext, m[i].world, &cts[i]);
        memcpy(cts[i].job, m[i].job, sizeof cts[i].job);
        site_of(&m[i], &cts[i]);
    }
    /* Members with the same call at the same place form one group. */
    int ngroups = 0;
    for (int i = 0; i < n; i++) {
        group[i] = -1;
        if (!m[i].summary)
            continue;
        for (int j = 0; j < i; j++)
            if (m[j].summary && group[j] >= 0 && strcmp(m[i].summary, m[j].summary) == 0
                && strcmp(m[i].site, m[j].site) == 0) {
                group[i] = group[j];
                break;
            }
        if (group[i] < 0)
            group[i] = ngroups++;
    }
    char cname[64];
    mc_pcomm_name(h->comm, cname, sizeof cname);
    int world = h->comm == MPI_COMM_WORLD;
    /* Members of one group of MPI_Intercomm_create that name different
     * local leaders: the intercommunicator's own class (seed 001). */
    int icreate = h->fn == MC_FN_MPI_Intercomm_create && h->verdict == MC_CM_ROOT;
    if (icreate)
        snprintf(msg, 8192, "intercommunicator creation mismatch on %s (%d members): the members of one "
                 "group pass different local_leader values, and MPI_Intercomm_create would hang. ",
                 cname, n);
    else
        snprintf(msg, 8192, "collective mismatch on %s (%d %s): %s. ", cname, n,
                 h->inter ? "processes in both groups" : "members",
                 mc_collrec_describe(h->verdict, desc, sizeof desc));
    mc_call_text *others = mc_calloc((size_t)(ngroups ? ngroups : 1), sizeof *others);
    size_t nothers = 0;
    for (int gi = 0; gi < ngroups; gi++) {
        int count = 0, first = -1;
        for (int i = 0; i < n; i++)
            if (group[i] == gi) {
                if (first < 0)
                    first = i;
                count++;
            }
        append(msg, 8192, "%s%s ", gi ? "; " : "", count > 1 ? "ranks" : "rank");
        int shown = 0;
        for (int i = 0; i < n; i++) {
            if (group[i] != gi)
                continue;
            if (shown < 12) {
                append(msg, 8192, "%s%d%s%s", shown ? ", " : "", m[i].world, m[i].job[0] ? " of " : "",
                       m[i].job);
                if (!world)
                    append(msg, 8192, " (rank %d here)", m[i].crank);
            } else if (shown == 12) {
                append(msg, 8192, ", ...");
            }
            shown++;
        }
        append(msg, 8192, " %s %s%s%s", count > 1 ? "call" : "calls", m[first].summary,
               m[first].site[0] ? " at " : "", m[first].site);
        if (nothers < 8) {
            others[nothers++] = cts[first];
            memset(&cts[first], 0, sizeof cts[first]);
        }
    }
    if (!world)
        append(msg, 8192, " (ranks numbered in MPI_COMM_WORLD)");
    mc_report_with(icreate ? MC_CLASS_INTERCOMM_MISMATCH : MC_CLASS_COLLECTIVE_MISMATCH, NULL, h->fn,
                   h->call ? h->call->caller : h->caller, others, nothers, "%s", msg);
    free(others);
out:
    if (cts) {
        mc_finding tmp = {.calls = cts, .ncalls = (size_t)n};
        mc_finding_clear(&tmp);     /* frees cts too */
    }
    free(m);
    free(group);
    free(msg);
}

/* "MPI_Ibcast" from a record's kind (family x 4 + form). */
static const char *kind_name(int64_t kind, char *buf, size_t len)
{
    const char *fam = mc_coll_family_name((int)(kind / 4));
    if ((kind & 3) == MC_VAR_NONBLOCKING && strncmp(fam, "MPI_", 4) == 0)
        snprintf(buf, len, "MPI_I%c%s", tolower((unsigned char)fam[4]), fam + 5);
    else if ((kind & 3) == MC_VAR_PERSISTENT)
        snprintf(buf, len, "%s_init", fam);
    else
        snprintf(buf, len, "%s", fam);
    return buf;
}

/* The finding of a nonblocking collective's mismatch, from what the
 * reduction tells: this member's call, and the range of what the others
 * gave. */
void mc_hs_write_short_finding(hs_t *h)
{
    char desc[256], cname[64], extra[256] = "";
    int64_t lo, hi;
    mc_pcomm_name(h->comm, cname, sizeof cname);
    if ((h->verdict & MC_CM_KIND) && mc_collrec_get(&h->all, MC_CR_KIND, &lo, &hi)) {
        char a[64], b[64];
        snprintf(extra, sizeof extra, " (members called %s and %s, among others)",
                 kind_name(lo, a, sizeof a), kind_name(hi, b, sizeof b));
    } else if ((h->verdict & MC_CM_ROOT) && mc_collrec_get(&h->all, MC_CR_ROOT, &lo, &hi)) {
        snprintf(extra, sizeof extra, " (roots from %lld to %lld)", (long long)lo, (long long)hi);
    } else if ((h->verdict & MC_CM_SIZE) && mc_collrec_get(&h->all, MC_CR_SEND_BYTES, &lo, &hi)) {
        snprintf(extra, sizeof extra, " (parts of %lld to %lld bytes)", (long long)lo, (long long)hi);
    }
    mc_call_text ct;
    own_call(h, &ct);
    ct.rank = mc_st.world_rank;
    snprintf(ct.job, sizeof ct.job, "%s", mc_st.job);
    mc_call_text *others = mc_malloc(sizeof *others);
    if (others)
        others[0] = ct;
    else {
        mc_finding tmp = {.calls = mc_malloc(sizeof ct), .ncalls = 1};
        if (tmp.calls) {
            tmp.calls[0] = ct;
            mc_finding_clear(&tmp);
        }
    }
    mc_report_with(MC_CLASS_COLLECTIVE_MISMATCH, NULL, h->fn, h->caller, others, others ? 1 : 0,
                   "collective mismatch on %s (%d members) involving a nonblocking or persistent "
                   "collective: %s%s. This rank called %s",
                   cname, h->flat_size, mc_collrec_describe(h->verdict, desc, sizeof desc), extra,
                   h->summary);
    free(others);
}

