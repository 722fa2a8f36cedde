/*
 * syncmodel_report.c - the potential-deadlock finding of strict mode's
 * model of synchronous sends (syncmodel.c): the cycle it closed, each call
 * with its rank and file:line, this rank's own from their return
 * addresses, the other ranks' from the call sites their envelopes and
 * notices carried (site.c).
 *
 * A cycle of two ranks is often seen by both (each let its send go); the
 * finding is then written the same way on both, the lower rank first, so
 * that the report folds the two into one (report/merge.c: the same
 * message and first call).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "skipped.h"     /* mc_malloc, mc_calloc, mc_strdup */
#include "stack.h"
#include "state.h"
#include "syncmodel.h"

static void arg(mc_call_text *ct, const char *name, int value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%d", value);
    ct->args[ct->nargs].name = mc_strdup(name);
    ct->args[ct->nargs].value = mc_strdup(buf);
    ct->nargs++;
}

/* The call as far as the model knows it: name, the other end's world
 * rank, the tag, and where it was made. */
static void call_text(mc_call_text *ct, const mc_dep_call *k, int sending)
{
    memset(ct, 0, sizeof *ct);
    ct->rank = k->rank;
    ct->call = mc_strdup(k->fn >= 0 && k->fn < MC_FN_COUNT_ ? mc_fn_table[k->fn].name
                                                              : sending ? "(send)" : "(receive)");
    if (k->fortran)
        mc_call_text_fortran_name(ct);
    ct->args = k->coll ? NULL : mc_calloc(2, sizeof *ct->args);
    if (ct->args) {
        if (k->peer >= 0)
            arg(ct, sending ? "dest (world rank)" : "source (world rank)", k->peer);
        arg(ct, "tag", k->tag);
    }
    uintptr_t pc = k->caller ? (uintptr_t)k->caller : mc_site_decode(k->site_mod, k->site_off);
    if (pc) {
        ct->nframes = mc_stack_resolve_inlined(&pc, 1, &ct->stack);
    } else if ((ct->stack = mc_calloc(1, sizeof *ct->stack))) {
        ct->nframes = 1;
        ct->stack[0].pc = (uintptr_t)k->site_off;
    }
}

static const char *site(const mc_call_text *ct, char *buf, size_t len)
{
    mc_call_site_text(ct, buf, len);
    if (!buf[0])
        snprintf(buf, len, "an unknown line");
    return buf;
}

#define TAIL "The program went on only because MPI buffered a send that strict mode let go " \
             "while its receiver was busy; with larger messages or another MPI it hangs"

/* Four calls, sends at even places: their texts and sites. */
static void four(mc_call_text *calls, char (*sites)[96], const mc_dep_call *a, const mc_dep_call *b,
                 const mc_dep_call *c, const mc_dep_call *d)
{
    const mc_dep_call *k[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) {
        call_text(&calls[i], k[i], i % 2 == 0);
        site(&calls[i], sites[i], sizeof sites[i]);
    }
}

void mc_dep_report(const mc_dep_matched *m, const mc_dep_entry *d)
{
    int me = mc_st.world_rank, y = m->send.rank;
    mc_call_text calls[4];
    char s[4][96];
    if (d->own) {
        /* A message of this rank to itself, received only after the send. */
        call_text(&calls[0], &d->send, 1);
        call_text(&calls[1], &m->recv, 0);
        mc_report_with(MC_CLASS_POTENTIAL_DEADLOCK, NULL, d->send.fn, d->send.caller, calls, 2,
                       "potential deadlock: rank %d's %s at %s would wait forever if MPI did not buffer "
                       "it (strict mode: a send completes when its receive is posted): its receive at %s "
                       "is posted only after the send. " TAIL,
                       me, calls[0].call, site(&calls[0], s[0], sizeof s[0]), site(&calls[1], s[1], sizeof s[1]));
        return;
    }
    if (d->kind == 1 && d->via.rank == y) {
        /* Two ranks: each one's send waits for the other's receive; the
         * lower rank's send first, as the other rank writes it. */
        int first_me = me < y, a = first_me ? me : y, b = first_me ? y : me;
        if (first_me)
            four(calls, s, &d->send, &m->recv, &m->send, &d->via);
        else
            four(calls, s, &m->send, &d->via, &d->send, &m->recv);
        const mc_dep_call *first = first_me ? &d->send : &m->send;
        mc_report_with(MC_CLASS_POTENTIAL_DEADLOCK, NULL, first->fn, first->caller ? first->caller : m->recv.caller,
                       calls, 4,
                       "potential deadlock: ranks %d and %d (numbered in MPI_COMM_WORLD) would wait for "
                       "each other forever if MPI did not buffer their standard-mode sends (strict mode: "
                       "a send completes when its receive is posted): rank %d's %s to rank %d at %s and "
                       "rank %d's %s to rank %d at %s each complete only once the other rank posts its "
                       "receive (at %s and %s), which it reaches only after its own send. " TAIL,
                       a, b, a, calls[0].call, b, s[0], b, calls[2].call, a, s[2], s[3], s[1]);
        return;
    }
    if (d->kind == MC_DEP_COLL) {
        /* Through a blocking collective this rank made before its receive
         * (synccoll.c): a member entered it only after y's send had been
         * received. */
        call_text(&calls[0], &m->send, 1);
        call_text(&calls[1], &m->recv, 0);
        call_text(&calls[2], &d->via, 0);
        for (int i = 0; i < 3; i++)
            site(&calls[i], s[i], sizeof s[i]);
        mc_report_with(MC_CLASS_POTENTIAL_DEADLOCK, NULL, m->send.fn, m->recv.caller, calls, 3,
                       "potential deadlock: if MPI did not buffer standard-mode sends (strict mode: a send "
                       "completes when its receive is posted), rank %d's %s to rank %d at %s would complete "
                       "only once rank %d posts its receive at %s; rank %d reaches that receive only after "
                       "its %s at %s, which may complete only once every member of the communicator has "
                       "entered it (a correct program must not rely on a collective not synchronizing, "
                       "MPI-4.0 sec. 6.14), and a member entered it only after rank %d's send had been "
                       "received: the ranks would wait for each other forever. " TAIL,
                       y, calls[0].call, me, s[0], me, s[1], me, calls[2].call, s[2], y);
        return;
    }
    /* The send that closes the cycle and its receive, then the link that
     * brought the dependency: a send and its receive. */
    four(calls, s, &m->send, &m->recv, &d->send, &d->via);
    if (d->kind == 2 && d->send.rank == y)
        /* One rank's two messages received in the other order. */
        mc_report_with(MC_CLASS_POTENTIAL_DEADLOCK, NULL, m->send.fn, m->recv.caller, calls, 4,
                       "potential deadlock: ranks %d and %d (numbered in MPI_COMM_WORLD) would wait for "
                       "each other forever if MPI did not buffer standard-mode sends (strict mode: a send "
                       "completes when its receive is posted): rank %d's %s to rank %d at %s completes only "
                       "once rank %d posts its receive at %s, which rank %d posts only after its receive at "
                       "%s of the message rank %d sends after that send (%s at %s). " TAIL,
                       y < me ? y : me, y < me ? me : y, y, calls[0].call, me, s[0], me, s[1], me, s[3], y,
                       calls[2].call, s[2]);
    else if (d->kind == 2)
        /* Through the data: this rank received from z, which sent only
         * after y's send had been received. */
        mc_report_with(MC_CLASS_POTENTIAL_DEADLOCK, NULL, m->send.fn, m->recv.caller, calls, 4,
                       "potential deadlock: if MPI did not buffer standard-mode sends (strict mode: a send "
                       "completes when its receive is posted), rank %d's %s to rank %d at %s would complete "
                       "only once rank %d posts its receive at %s; rank %d reaches that receive only after "
                       "its receive at %s of rank %d's %s at %s, which rank %d made only after rank %d's "
                       "send had been received (through the messages between them): the ranks would wait "
                       "for each other forever. " TAIL,
                       y, calls[0].call, me, s[0], me, s[1], me, s[3], d->send.rank, calls[2].call, s[2],
                       d->send.rank, y);
    else
        /* Through a notice: this rank's send to x completed only once x
         * posted its receive, which x did only after y's send had been
         * received. */
        mc_report_with(MC_CLASS_POTENTIAL_DEADLOCK, NULL, m->send.fn, m->recv.caller, calls, 4,
                       "potential deadlock: if MPI did not buffer standard-mode sends (strict mode: a send "
                       "completes when its receive is posted), rank %d's %s to rank %d at %s would complete "
                       "only once rank %d posts its receive at %s; rank %d reaches that receive only after "
                       "its %s to rank %d at %s completed, which needed rank %d's receive at %s, and rank %d "
                       "posted that receive only after rank %d's send had been received (through the "
                       "messages between them): the ranks would wait for each other forever. " TAIL,
                       y, calls[0].call, me, s[0], me, s[1], me, calls[2].call, d->via.rank, s[2], d->via.rank,
                       s[3], d->via.rank, y);
}
