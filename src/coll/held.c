/*
 * held.c - a nonblocking collective starts only once its handshake ended.
 *
 * The handshake of MPI_Ialltoallv and its kin runs in the background
 * (handshake.c). Started at once, the real operation could fail or write
 * past a buffer on a mismatch before the verdict (an MPI_Ialltoallv
 * against an MPI_Igather truncates in Open MPI's MPI_Wait). So the call
 * hands the program a generalized request and keeps the call's values; the
 * real call is made from them (a start function generated per function,
 * wrappers/gen_wrappers.py, !held) once the handshake has ended, from the
 * checker's progress: the engine's service at every engine call and wait
 * (mc_coll_held_drive), or the program's completion call on the request
 * (mc_coll_held_progress). The nonblocking call itself never waits.
 *
 * Never at the price of a hang or of MPI's order. A held operation starts
 * without its verdict:
 *   - before any other collective on its communicator (MPI matches
 *     collectives in the order each process calls them: held ones go
 *     first, in their order), and before MPI_Comm_idup, MPI_Comm_free,
 *     MPI_Comm_create_group, MPI_Start(all), MPI_Type_free, MPI_Op_free
 *     and MPI_Finalize (a handle the program frees after the call must
 *     still be valid when the real call is made);
 *   - when a completion call has waited HOLD_MAX_S for the handshake (a
 *     member late to the collective: a root's MPI_Ibcast may complete in
 *     MPI without it, and the program may count on that). That call site
 *     is then held no more (a loop would pay the wait at every turn).
 * Not held: under MPI_THREAD_MULTIPLE (another thread may call a collective
 * on the communicator meanwhile), calls whose arguments failed a check,
 * communicators whose error handler is not fatal (an error MPI returns at
 * the call must come back from the call), and persistent collectives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "coll_internal.h"
#include "fn_table.h"
#include "hooks.h"
#include "runtime.h"
#include "siteset.h"
#include "skipped.h"      /* mc_malloc */
#include "state.h"

/* How long a completion call waits for a held operation's handshake
 * before it starts the operation anyway: under the timeout, so that the
 * deadlock detector never judges a wait the real operation would not have
 * made. */
#define HOLD_MAX_S (mc_st.cfg.timeout_s / 4 < 0.25 ? mc_st.cfg.timeout_s / 4 : 0.25)

int mc_coll_nheld;
static mc_prec *held_head, *held_tail;     /* not started yet, in call order; engine lock */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Call sites whose held operation had to start before its verdict
 * because a member was late: not held again. Engine lock. */
static mc_siteset late_sites;

int mc_coll_may_hold(const mc_call *c, MPI_Comm comm)
{
    /* A Fortran entry point's converted arrays (MPI_Ialltoallw's datatypes)
     * are gone once it returns: the call cannot start later. */
    if (!(c->desc->flags & MC_FLAG_HELD) || c->invalid || mc_st.thread_level == MPI_THREAD_MULTIPLE
        || (c->fortran & MC_LANG_TRANSIENT)
        || c->desc->req_out < 0 || mc_siteset_has(&late_sites, c->caller) || mc_siteset_full(&late_sites))
        return 0;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    if (PMPI_Comm_get_errhandler(comm, &eh) != MPI_SUCCESS)
        return 0;
    int fatal = eh == MPI_ERRORS_ARE_FATAL || eh == mc_st.fatal_errhandler;
    if (eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_ARE_FATAL && eh != MPI_ERRORS_RETURN)
        PMPI_Errhandler_free(&eh);
    return fatal;
}

/* ---- the program's request ------------------------------------------------ */

static int held_query(void *extra, MPI_Status *status)
{
    mc_prec *p = extra;
    *status = p->status;
    status->MPI_ERROR = p->err;
    return p->err;
}

static int held_free(void *extra) { (void)extra; return MPI_SUCCESS; }
static int held_cancel(void *extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }

int mc_coll_hold(mc_call *c, mc_start_fn start, MPI_Request *request)
{
    int n = c->desc->nparams;
    mc_value *vals = mc_malloc((size_t)(n > 0 ? n : 1) * sizeof *vals);
    mc_prec *p = vals ? mc_prec_alloc() : NULL;
    MPI_Request user = MPI_REQUEST_NULL;
    if (!p || PMPI_Grequest_start(held_query, held_free, held_cancel, p, &user) != MPI_SUCCESS) {
        /* No room to hold it: the real call now, as without the checker. */
        free(vals);
        if (p)
            mc_prec_free(p);
        c->hold = 0;
        return start(c->vals, request);
    }
    memcpy(vals, c->vals, (size_t)n * sizeof *vals);
    mc_eng_lock();
    p->kind = MC_PR_COLL;
    p->fn = c->fn;
    p->active = 1;
    p->greq = 1;
    p->user = user;
    p->real = MPI_REQUEST_NULL;
    p->coll_key = c->coll_key;
    p->caller = c->caller;
    const mc_coll_fn *f = mc_coll_fn_of(c->fn);
    p->comm = f && !f->comm_ptr ? c->vals[f->a_comm].comm : MPI_COMM_NULL;
    p->held_start = start;
    p->held_vals = vals;
    p->held_next = NULL;
    if (held_tail)
        held_tail->held_next = p;
    else
        held_head = p;
    held_tail = p;
    mc_coll_nheld++;
    mc_prec_insert(p, user, c);
    mc_eng_unlock();
    c->held = p;
    *request = user;
    return MPI_SUCCESS;
}

/* ---- starting ------------------------------------------------------------- */

/* The handshake of key still runs (handshake.c). */
static int handshake_running(uint64_t key)
{
    uint64_t keys[64];
    int n = mc_coll_started_keys(keys, 64);
    if (n > 64)
        return 1;       /* too many to tell: wait for the bound */
    for (int i = 0; i < n; i++)
        if (keys[i] == key)
            return 1;
    return 0;
}

/* MPICHECK_INTERNAL_TEST_HELD_TRACE: one stderr line per start, for
 * tests/held.sh (whether the verdict came first). */
static void trace(const mc_prec *p, const char *why)
{
    static int on = -1;
    if (on < 0)
        on = getenv("MPICHECK_INTERNAL_TEST_HELD_TRACE") != NULL;
    if (on)
        fprintf(stderr, "mpicheck-trace: rank %d: held %s started %s\n", mc_st.world_rank,
                mc_fn_table[p->fn].name, why);
}

/* Makes p's real call; off the held list. Engine lock. */
static void start_one(mc_prec *p, const char *why)
{
    trace(p, why);
    mc_prec **pp = &held_head, *prev = NULL;
    while (*pp && *pp != p) {
        prev = *pp;
        pp = &(*pp)->held_next;
    }
    if (*pp) {
        *pp = p->held_next;
        if (held_tail == p)
            held_tail = prev;
        mc_coll_nheld--;
    }
    mc_start_fn start = p->held_start;
    p->held_start = NULL;
    int rc = start(p->held_vals, &p->real);
    if (rc != MPI_SUCCESS) {
        /* The program's completion call returns MPI's error (the error
         * handler, fatal here, has already run). */
        p->err = rc;
        p->real = MPI_REQUEST_NULL;
    }
    free(p->held_vals);
    p->held_vals = NULL;
}

/* Whether an operation held before p on p's communicator has not started. */
static int earlier_waits(const mc_prec *p)
{
    for (const mc_prec *q = held_head; q && q != p; q = q->held_next)
        if (q->comm == p->comm)
            return 1;
    return 0;
}

void mc_coll_held_flush(MPI_Comm comm)
{
    /* In call order, so MPI sees them in the program's order. */
    for (mc_prec *p = held_head, *next; p; p = next) {
        next = p->held_next;
        if (comm == MPI_COMM_NULL || p->comm == comm)
            start_one(p, handshake_running(p->coll_key) ? "before its verdict: a call needs it made first"
                                                         : "after its handshake");
    }
}

void mc_coll_held_drive(void)
{
    for (mc_prec *p = held_head, *next; p; p = next) {
        next = p->held_next;
        if (!handshake_running(p->coll_key) && !earlier_waits(p))
            start_one(p, "after its handshake");
    }
}

int mc_coll_held_progress(mc_prec *p)
{
    if (p->greq_done)
        return 1;
    if (p->held_start) {
        const char *why = "after its handshake";
        if (handshake_running(p->coll_key)) {
            double t = now_s();
            if (p->held_since == 0)
                p->held_since = t;
            if (t - p->held_since < HOLD_MAX_S)
                return 0;
            /* Started before its verdict, which still comes (the
             * handshake goes on in the background, as when not held). */
            why = "before its verdict: a member is late";
            mc_siteset_add(&late_sites, p->caller);
        }
        /* Those before it on its communicator go first. */
        for (mc_prec *q = held_head, *next; q && q != p; q = next) {
            next = q->held_next;
            if (q->comm == p->comm)
                start_one(q, handshake_running(q->coll_key) ? "before its verdict: a member is late"
                                                           : "after its handshake");
        }
        start_one(p, why);
    }
    if (p->real != MPI_REQUEST_NULL && !mc_prec_test_real(p))
        return 0;
    p->greq_done = 1;
    PMPI_Grequest_complete(p->user);
    return 1;
}
