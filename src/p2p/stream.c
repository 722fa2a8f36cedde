/*
 * stream.c - strict mode without lock step for a stream of sends: the
 * acknowledgments of consecutive MPI_Send calls to one destination are
 * waited for when the program makes its next other MPI call, not each in
 * its own call.
 *
 * Strict mode gives every standard send MPI_Ssend's semantics: it completes
 * when its receive is posted, so that the detector can prove a potential
 * deadlock. A program that sends a stream of messages to a receiver that
 * receives them one by one then runs in lock step, one round trip per
 * message (MPICH's pt2pt/pingping: 4 to 7 times slower with MPICH).
 *
 * Why deferring is sound. Take sends S1, S2, ..., Sk, made one after the
 * other on one communicator to one destination with one tag, with no other
 * MPI call between them (calls that only read a handle, MPI_Wtime and
 * MPI_Comm_rank for instance, change nothing another process can see and
 * do not count). Any receive or probe that could match Si matches S(i-1)
 * as well, and MPI's non-overtaking rule gives it S(i-1) first while that
 * one is unmatched: the receiver sees the same messages in the same order
 * whether Si was sent at once or only once S(i-1) was received. With
 * synchronous sends the program would reach its next other call X only
 * once Sk's receive was posted; here X waits for exactly that before it
 * starts, with the detector answering as if the program were still in the
 * oldest unacknowledged send (its call, arguments and stack, kept when it
 * was made). Every wait is on the same destination, so the detector sees
 * the same edge it would have seen in the send itself.
 *
 * The first send of a stream still waits in its own call (a ping-pong's
 * send followed by its receive gains nothing, and pays no stack walk);
 * at most MC_STREAM_MAX acknowledgments are outstanding.
 *
 * Off where it could mislead: with threads of the program that may call
 * MPI (the acknowledgments must be waited for by the thread that sent),
 * and in Python programs (a report's Python lines are the current ones,
 * not those of the deferred send).
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "p2p.h"
#include "p2p_internal.h"
#include "stack.h"
#include "state.h"

#define MC_STREAM_MAX 64
#define MC_STREAM_PCS 32
#define MC_STREAM_VALS 8

typedef struct {
    mc_prec p;                  /* the send, MPI done with its data; p.slot its envelope */
    mc_call call;               /* the call as the program made it, for the detector */
    mc_value vals[MC_STREAM_VALS];
    uintptr_t pcs[MC_STREAM_PCS];
    size_t npcs;
} deferred_send;

int mc_stream_open;     /* read at every call's enter (core/dispatch.c), without the lock: atomic */
static MPI_Comm key_comm;
static int key_dest, key_tag;
static pthread_t owner;                 /* the thread that sent */
static deferred_send ring[MC_STREAM_MAX];
static int head, nq;                    /* oldest at ring[head] */
static mc_env_slot *next_slot;          /* the send waiting for the deferred ones (its envelope is out) */

/* Whether a send may go on before its acknowledgment: strict mode, no
 * other thread of the program that may call MPI, no Python interpreter. */
static int may_defer(void)
{
    return mc_eng_strict_now()
           && (mc_st.thread_level <= MPI_THREAD_FUNNELED
               || __atomic_load_n(&mc_st.app_threads, __ATOMIC_RELAXED) == 0)
           && !mc_pystack_active();
}

static deferred_send *oldest(void) { return &ring[head]; }

static void pop_oldest(void)
{
    deferred_send *d = oldest();
    /* The program is past this send: acknowledged, or let go. */
    mc_sync_completed(&d->p, 0);
    if (d->p.slot)
        mc_env_release(d->p.slot);
    d->p.slot = NULL;
    head = (head + 1) % MC_STREAM_MAX;
    nq--;
}

/* Forgets the acknowledged ones at the front. */
static void pop_acknowledged(void)
{
    while (nq && mc_env_slot_done(oldest()->p.slot))
        pop_oldest();
}

static int oldest_ready(void *ctx)
{
    return mc_prec_progress(ctx);
}

/* The wait: one clause, the destination, for every deferred send still
 * unacknowledged; each counts as a request missing only its
 * acknowledgment (the early probe's "ahead" guard weighs the envelopes in
 * flight against them). */
static void all_describe(void *ctx, mc_waitfor *w, int and_mode)
{
    int clause = 0;
    for (int i = 0; i < nq; i++) {
        deferred_send *d = &ring[(head + i) % MC_STREAM_MAX];
        if (d->p.relaxed || mc_env_slot_done(d->p.slot))
            continue;
        if (!clause++) {
            mc_prec_describe(&d->p, w);
        } else {
            w->npending++;
            w->nrelax++;
        }
    }
    /* The send that waits for these has not, with synchronous sends, been
     * made yet; its envelope is out, and counts with them, or the early
     * probe would take this rank for one ahead of its receiver. */
    if (clause && next_slot && !mc_env_slot_done(next_slot)) {
        w->npending++;
        w->nrelax++;
    }
}

/* Waits for the oldest deferred send's acknowledgment; 0 when its call
 * site stops waiting for good (a potential deadlock was reported there, or
 * its early probes were used up): the rest are let go too. A wait an early
 * probe let go without a verdict lets go of that send only: the receiver
 * was busy, or merely descheduled on a loaded machine, and dropping the
 * whole stream then left this rank ahead of its receiver (its envelopes
 * unacknowledged), which no early probe judges, so a potential deadlock
 * later in the stream went unreported (potential_deadlock_send_stream_long.c
 * with MPICH at load average 21 on 2 cores: 9 runs of 30, 5 since;
 * docs/design.md, "Strict mode without long stalls"). */
static int wait_oldest(void)
{
    deferred_send *d = oldest();
    mc_eng_wait_as(&d->call, d->pcs, d->npcs, oldest_ready, all_describe, &d->p);
    int go_on = !d->p.relaxed || !mc_dl_site_relaxed(d->call.caller);
    pop_oldest();
    return go_on;
}

/* Waits for every deferred send, oldest first; once the call site stops
 * waiting for good (wait_oldest), the rest go without waiting. Engine lock
 * held. */
static void settle(int drop)
{
    while (nq) {
        if (drop)
            pop_oldest();
        else if (!wait_oldest())
            drop = 1;
    }
}

void mc_stream_before_data_wait(mc_env_slot *slot)
{
    next_slot = slot;
    settle(0);
    next_slot = NULL;
}

/* Engine lock held. */
static void end_locked(int drop)
{
    __atomic_store_n(&mc_stream_open, 0, __ATOMIC_RELAXED);
    settle(drop || !pthread_equal(owner, pthread_self()) || !may_defer());
}

void mc_stream_end(int drop)
{
    mc_eng_lock();
    if (__atomic_load_n(&mc_stream_open, __ATOMIC_RELAXED))
        end_locked(drop);
    mc_eng_unlock();
}

int mc_stream_before_send(int mode, MPI_Comm comm, int dest, int tag)
{
    if (!__atomic_load_n(&mc_stream_open, __ATOMIC_RELAXED))
        return 0;
    if (mode == MC_SEND_STANDARD && comm == key_comm && dest == key_dest && tag == key_tag
        && pthread_equal(owner, pthread_self()) && may_defer()) {
        pop_acknowledged();
        if (nq == MC_STREAM_MAX)
            if (!wait_oldest())
                end_locked(1);
        return __atomic_load_n(&mc_stream_open, __ATOMIC_RELAXED);
    }
    end_locked(0);
    return 0;
}

void mc_stream_after_send(mc_call *c, mc_prec *p, int deferred)
{
    if (!deferred) {
        /* A strict standard send that waited for its own receive opens a
         * stream; any other send ended one before it started. */
        if (p->mode != MC_SEND_STANDARD || !p->slot || p->relaxed || !may_defer())
            return;
        key_comm = p->comm;
        key_dest = p->peer;
        key_tag = p->tag;
        owner = pthread_self();
        __atomic_store_n(&mc_stream_open, 1, __ATOMIC_RELAXED);
        return;
    }
    deferred_send *d = &ring[(head + nq) % MC_STREAM_MAX];
    d->p = *p;
    memset(&d->call, 0, sizeof d->call);
    d->call.fn = c->fn;
    d->call.desc = c->desc;
    d->call.caller = c->caller;
    d->call.fortran = c->fortran & MC_LANG_FORTRAN;
    d->call.seq = c->seq;
    int n = c->desc->nparams < MC_STREAM_VALS ? c->desc->nparams : MC_STREAM_VALS;
    memcpy(d->vals, c->vals, (size_t)n * sizeof d->vals[0]);
    d->call.vals = d->vals;
    d->call.req_before = d->call.req_inline;
    size_t np = mc_stack_capture(d->pcs, MC_STREAM_PCS);
    d->npcs = mc_stack_trim_to_site(d->pcs, np, (uintptr_t)c->caller);
    nq++;
}
