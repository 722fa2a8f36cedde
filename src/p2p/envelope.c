/*
 * envelope.c - envelopes: sending them (a slot per envelope in flight), and
 * what the receiver does with one: the type check and the lost-message
 * report. Reports name both sides: the receiving call on this rank, and the
 * sending call rebuilt from the envelope (rank, function, signature, tag,
 * file:line through site.c).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "p2p.h"
#include "skipped.h"
#include "p2p_internal.h"
#include "report.h"
#include "stack.h"
#include "state.h"
#include "typesig.h"


static mc_env_slot *inflight;       /* slots whose send may not be done */
static mc_env_slot *freelist;
static int ninflight;

int mc_env_wire_size(const mc_env *e)
{
    uint32_t n = e->sig.nruns < MC_SIG_INLINE_RUNS ? e->sig.nruns : MC_SIG_INLINE_RUNS;
    return (int)(offsetof(mc_env, sig) + offsetof(mc_sig_msg, runs) + n * sizeof(mc_sig_run));
}

/* Slots are reaped by the wait loop's service; a program whose waits all
 * complete at once never enters it, so a send also reaps, when the free
 * list is empty and the slots in flight have doubled since the last time
 * (amortized constant; 1,000,000 self-messages grew the process by 230 MB
 * before, bench/buffers.c). */
static int reap_at = 64;

static mc_env_slot *slot_get(void)
{
    if (!freelist && ninflight >= reap_at) {
        mc_env_reap(1);
        reap_at = ninflight * 2 > 64 ? ninflight * 2 : 64;
    }
    mc_env_slot *s = freelist;
    if (s)
        freelist = s->next;
    else
        s = mc_malloc(sizeof *s);
    return s;
}

mc_env_slot *mc_env_send(mc_call *c, mc_pcomm *pc, int mode, const void *buf, MPI_Count count,
                         MPI_Datatype type, int dest, int tag, int owned, const uint64_t *sum)
{
    mc_env_slot *s = slot_get();
    mc_env stack_env;
    /* Strict mode: a send that is not buffered completes for the checker
     * only when a matching receive is posted, i.e. when the mirror of that
     * receive takes the envelope: MPI_Issend says exactly that. */
    int sync = mode != MC_SEND_BUFFERED && mc_eng_strict_now();
    /* Without a slot (the checker's memory ran out) the envelope still
     * goes, from the stack by a blocking standard send of a few dozen bytes
     * (delivered eagerly by both MPIs): a receiver's mirror that got no
     * envelope would take the next one and pair every later message wrongly.
     * Only the strict-mode acknowledgment of this send is lost. */
    mc_env *e = s ? &s->env : &stack_env;
    memset(e, 0, sizeof *e);
    e->magic = MC_ENV_MAGIC;
    e->fn = c->fn;
    e->mode = mode;
    e->world_rank = mc_st.world_rank;
    e->dest = dest;
    e->tag = tag;
    mc_site_encode(c->caller, &e->site_mod, &e->site_off);
    mc_typesig_msg(type, (uint64_t)count, &e->sig);
    if (c->fortran)
        e->flags |= MC_ENV_FORTRAN;
    if (sum) {
        e->flags |= MC_ENV_SUM;
        e->data_sum = *sum;
    }
    if (s && sync)
        mc_sync_envelope(pc, e);
    else if (mc_eng_strict)
        mc_sync_envelope_other(pc, e);
    if (!s) {
        if (PMPI_Send(e, mc_env_wire_size(e), MPI_BYTE, dest, tag, pc->shadow) == MPI_SUCCESS) {
            mc_env_sent++;
            if (mc_eng_strict)
                mc_notice_sent(pc, dest, tag, NULL);
        }
        return NULL;
    }
    s->done = 0;
    s->owned = owned;
    s->dep_own = 0;
    int rc = sync
        ? PMPI_Issend(e, mc_env_wire_size(e), MPI_BYTE, dest, tag, pc->shadow, &s->req)
        : PMPI_Isend(e, mc_env_wire_size(e), MPI_BYTE, dest, tag, pc->shadow, &s->req);
    if (rc != MPI_SUCCESS) {
        s->gen++;
        s->next = freelist;
        freelist = s;
        return NULL;
    }
    mc_env_sent++;
    s->notice_k = 0;
    if (mc_eng_strict)      /* notices are strict mode's (notice.c) */
        mc_notice_sent(pc, dest, tag, s);
    s->next = inflight;
    inflight = s;
    ninflight++;
    return s;
}

/* The envelope's send completed: in strict mode its receive took it, and
 * a send let go without that is no longer a dependency of the model. */
static void slot_finished(mc_env_slot *s)
{
    s->done = 1;
    if (s->dep_own) {
        s->dep_own = 0;
        mc_sync_acked(s->env.serial);
    }
}

void mc_env_release(mc_env_slot *s)
{
    s->owned = 0;
}

/* Tests the slots in flight; finished unowned ones go back to the free list.
 * Owned ones are tested too, so an owner only reads s->done. Unless all, only
 * when enough are in flight for it to matter. */
void mc_env_reap(int all)
{
    static int countdown;
    if (!all && ninflight < 8 && --countdown > 0)
        return;
    countdown = 16;
    if (mc_eng_strict) {
        mc_notice_intake();
        mc_sync_service();
    }
    mc_env_slot **pp = &inflight;
    while (*pp) {
        mc_env_slot *s = *pp;
        if (!s->done) {
            int flag = 0;
            PMPI_Test(&s->req, &flag, MPI_STATUS_IGNORE);
            if (flag)
                slot_finished(s);
        }
        if (s->done && !s->owned) {
            *pp = s->next;
            ninflight--;
            s->gen++;       /* a record that let go of it no longer finds it its own */
            s->next = freelist;
            freelist = s;
        } else {
            pp = &s->next;
        }
    }
}

/* Test one owned slot now (a waiting sender): acknowledged when MPI
 * completed the envelope's send, or when the receiver's notice says its
 * receive is posted (notice.c; s->done then still waits for MPI, which
 * owns the envelope's memory until then). */
int mc_env_slot_done(mc_env_slot *s)
{
    if (!s->done) {
        int flag = 0;
        PMPI_Test(&s->req, &flag, MPI_STATUS_IGNORE);
        if (flag)
            slot_finished(s);
    }
    return s->done || (s->notice_k && mc_notice_acked(s));
}

/* Whether s's envelope was taken by a mirror (MPI completed its send),
 * asking MPI only: no notice is taken in, nothing else runs. */
int mc_env_slot_matched(mc_env_slot *s)
{
    if (!s->done) {
        int flag = 0;
        PMPI_Test(&s->req, &flag, MPI_STATUS_IGNORE);
        s->done = flag;
    }
    return s->done;
}

/* The envelopes in flight that no mirror took yet (each tested now): a
 * rank whose earlier sends went on without their acknowledgment (strict
 * mode let them go) is ahead of its receivers, and cannot be judged by an
 * early probe (runtime/deadlock_answer.c). */
int mc_env_unacked(void)
{
    int n = 0;
    for (mc_env_slot *s = inflight; s; s = s->next)
        n += !mc_env_slot_done(s);
    return n;
}

/* ---- the sender's side of a report -------------------------------------- */

static void arg(mc_call_text *ct, const char *name, const char *value)
{
    ct->args[ct->nargs].name = mc_strdup(name);
    ct->args[ct->nargs].value = mc_strdup(value);
    ct->nargs++;
}

/* The sending call as far as the envelope tells it. */
static void sender_call(mc_call_text *ct, const mc_env *e, MPI_Comm comm, int other_world)
{
    char buf[256];
    memset(ct, 0, sizeof *ct);
    ct->rank = e->world_rank;
    /* A sender outside this MPI_COMM_WORLD: spawned processes, or their
     * parents (the envelope does not carry their label). */
    if (other_world)
        snprintf(ct->job, sizeof ct->job, "another job");
    ct->call = mc_strdup(e->fn >= 0 && e->fn < MC_FN_COUNT_ ? mc_fn_table[e->fn].name : "(send)");
    if (e->flags & MC_ENV_FORTRAN)
        mc_call_text_fortran_name(ct);
    ct->args = mc_calloc(4, sizeof *ct->args);
    if (ct->args) {
        arg(ct, "message", mc_sig_msg_render(&e->sig, buf, sizeof buf));
        snprintf(buf, sizeof buf, "%d", e->dest);
        arg(ct, "dest", buf);
        snprintf(buf, sizeof buf, "%d", e->tag);
        arg(ct, "tag", buf);
        mc_pcomm_name(comm, buf, sizeof buf);
        arg(ct, "comm", buf);
    }
    uintptr_t pc = mc_site_decode(e->site_mod, e->site_off);
    if (pc) {
        /* The call site and, where it is inlined code, its callers in the
         * same function (stack.h). */
        ct->nframes = mc_stack_resolve_inlined(&pc, 1, &ct->stack);
    } else if ((ct->stack = mc_calloc(1, sizeof *ct->stack))) {
        ct->nframes = 1;
        ct->stack[0].pc = (uintptr_t)e->site_off;
    }
}

static int source_world(MPI_Comm comm, int source)
{
    mc_pcomm *pc = mc_pcomm_get(comm);
    return pc ? mc_pcomm_world_rank(pc, source) : -1;
}

/* The receiving call of record p, rebuilt from what the record kept (the
 * check may run in a later MPI_Wait, far from the MPI_Irecv). */
static void receiver_call(mc_call_text *ct, const mc_prec *p)
{
    const mc_fn_desc *d = &mc_fn_table[p->fn];
    mc_value vals[16];
    memset(vals, 0, sizeof vals);
    for (int i = 0; i < d->nparams && i < 16; i++) {
        switch (d->params[i].role) {
        case MC_ROLE_RBUF: vals[i].p = p->buf; break;
        case MC_ROLE_COUNT:
            if (d->params[i].ctype == MC_CT_COUNT) vals[i].c = p->count; else vals[i].i = (int)p->count;
            break;
        case MC_ROLE_DATATYPE: vals[i].type = p->type; break;
        case MC_ROLE_SOURCE: vals[i].i = p->peer; break;
        case MC_ROLE_RTAG: vals[i].i = p->tag; break;
        case MC_ROLE_COMM: vals[i].comm = p->comm; break;
        default: break;
        }
    }
    uintptr_t pc = (uintptr_t)p->caller;
    mc_report_fill_call_vals(ct, p->fn, vals, d->nparams < 16 ? d->nparams : 16, &pc, pc ? 1 : 0);
    if (p->fortran)
        mc_call_text_fortran_name(ct);
}

int mc_env_check(const mc_env *e, const mc_prec *p, mc_call *c, MPI_Comm comm, int source,
                 MPI_Datatype rtype, MPI_Count rcount)
{
    if (e->magic != MC_ENV_MAGIC)
        return 0;
    mc_sig_result res;
    mc_typesig_compare(&e->sig, rtype, (uint64_t)rcount, 0, &res);
    if (res.verdict != MC_SIG_MISMATCH && res.verdict != MC_SIG_TRUNCATED)
        return res.verdict == MC_SIG_MATCH;
    char sent[160], recv[160], why[256];
    mc_sig_msg_render(&e->sig, sent, sizeof sent);
    mc_typesig_render(rtype, (uint64_t)rcount, recv, sizeof recv);
    mc_sig_result_describe(&res, why, sizeof why);
    int sw = source_world(comm, source);
    mc_call_text calls[2];
    size_t n = 0;
    if (!c && p)
        receiver_call(&calls[n++], p);
    sender_call(&calls[n++], e, comm, sw < 0);
    const char *scall = calls[n - 1].call;
    const void *site = c ? c->caller : p ? p->caller : NULL;
    int fn = c ? c->fn : p ? p->fn : MC_FN_MPI_Recv;
    if (res.verdict == MC_SIG_TRUNCATED)
        mc_report_with(MC_CLASS_TYPE_MISMATCH, c, fn, c ? NULL : site, calls, n,
                       "message truncated: rank %d (world rank %d%s) sent %s with %s (tag %d), "
                       "the receive has room for %s only: %s",
                       source, sw >= 0 ? sw : e->world_rank, sw >= 0 ? "" : " of another job", sent, scall,
                       e->tag, recv, why);
    else
        mc_report_with(MC_CLASS_TYPE_MISMATCH, c, fn, c ? NULL : site, calls, n,
                       "type signatures differ: rank %d (world rank %d%s) sent %s with %s (tag %d), "
                       "received as %s: %s",
                       source, sw >= 0 ? sw : e->world_rank, sw >= 0 ? "" : " of another job", sent, scall,
                       e->tag, recv, why);
    return 0;
}

void mc_lost_report(mc_pcomm *pc, const mc_env *e, int source, long repeats)
{
    char sent[160], cname[64];
    mc_sig_msg_render(&e->sig, sent, sizeof sent);
    mc_pcomm_name(pc->comm, cname, sizeof cname);
    mc_call_text other;
    sender_call(&other, e, pc->comm, mc_pcomm_world_rank(pc, source) < 0);
    mc_report_with(MC_CLASS_LOST_MESSAGE, NULL, MC_FN_MPI_Finalize, NULL, &other, 1,
                   "message never received: rank %d (world rank %d%s) sent %s with %s (tag %d) "
                   "to rank %d (world rank %d) on %s, and no receive matched it before MPI_Finalize",
                   source, e->world_rank, other.job[0] ? " of another job" : "", sent, other.call, e->tag,
                   pc->rank, mc_st.world_rank, cname);
}
