/*
 * requests.c - what a program does with its request handles, checked before
 * the calls that take them (MPI_Request_free, MPI_Cancel, MPI_Start(all),
 * the Wait and Test families, MPI_Request_get_status):
 *
 * - request-free-active (warning): MPI_Request_free of a point-to-point
 *   request whose operation has not completed. The standard allows it (MPI
 *   completes the operation in the background, MPI-4.0 sec. 3.7.3), but the
 *   program can no longer learn when the buffer may be reused, and an error
 *   in the operation can only end the job (seed 000, the MPI_Request_free
 *   proposal). The engine keeps the operation's request and completes it
 *   itself (runtime/complete.c), so its envelope is still checked and its
 *   buffer still watched.
 * - invalid-argument: freeing or cancelling the request of a nonblocking or
 *   started persistent collective ("It is erroneous to call
 *   MPI_REQUEST_FREE or MPI_CANCEL for a request associated with a
 *   nonblocking collective operation", MPI-4.0 sec. 6.12); starting a
 *   persistent request that is still active, or twice in one MPI_Startall
 *   (sec. 3.9); and using a handle whose request already ended (completed
 *   or freed): a copy of a handle is valid only while its request lives,
 *   after that MPI may have freed it or given it to another operation;
 *   and, under MPI_THREAD_MULTIPLE, a request that one thread completes,
 *   tests, cancels or frees while another thread's call is doing so
 *   ("a program in which two threads block, waiting on the same request,
 *   is erroneous", MPI-4.0 sec. 11.6.2).
 *
 * RATIONALE: tracking's table holds every request the program holds, with
 * the call that made it, and remembers the requests that ended lately
 * (tracking/requests.c). A handle the table does not know is never
 * reported unless the checker saw its request end: requests made where the
 * checker does not look (an MPIX_ function) stay unjudged. Under
 * MPI_THREAD_MULTIPLE another thread's new request can take a handle
 * between its end and the table's update, so ended handles are not judged
 * there.
 */
#include <pthread.h>
#include "checks.h"
#include "objects.h"
#include "report.h"
#include "state.h"

enum { FAMILY_OTHER = 0, FAMILY_P2P, FAMILY_COLL };

/* What kind of operation a request-making function starts, from its roles:
 * point-to-point (the engine follows it: MPI_Isend, MPI_Recv_init,
 * MPI_Imrecv, ...), a collective (a communicator and no peer to address:
 * MPI_Ibcast, MPI_Bcast_init, MPI_Comm_idup), or another kind these rules
 * leave alone (partitioned, RMA, I/O, generalized requests). */
static int family(int fn)
{
    if (fn < 0 || fn >= MC_FN_COUNT_)
        return FAMILY_OTHER;
    const mc_fn_desc *d = &mc_fn_table[fn];
    unsigned long long m = d->role_mask;
    if (!(m & MC_ROLE_BIT(MC_ROLE_REQ_OUT)))
        return FAMILY_OTHER;
    if (d->flags & MC_FLAG_ENGINE)
        return FAMILY_P2P;
    unsigned long long peers = MC_ROLE_BIT(MC_ROLE_DEST) | MC_ROLE_BIT(MC_ROLE_SOURCE)
                               | MC_ROLE_BIT(MC_ROLE_TARGET) | MC_ROLE_BIT(MC_ROLE_WIN);
    if ((m & MC_ROLE_BIT(MC_ROLE_COMM)) && !(m & peers))
        return FAMILY_COLL;
    return FAMILY_OTHER;
}

/* The request handles of call c, and which parameter holds them. */
static int request_handles(const mc_call *c, const MPI_Request **out, MPI_Request *one, int *argi)
{
    const mc_fn_desc *d = c->desc;
    int i = d->req_in;
    if (i >= 0) {
        *argi = i;
        const MPI_Request *p = c->vals[i].p;
        if (!p)
            return 0;
        *out = p;
        if (d->params[i].role == MC_ROLE_REQ)
            return 1;
        int n = c->vals[d->params[i].ref[0]].i;
        return n > 0 ? n : 0;
    }
    for (i = 0; i < d->nparams; i++) {
        if (d->params[i].role == MC_ROLE_REQ_VAL) {
            *argi = i;
            *one = c->vals[i].req;
            *out = one;
            return 1;
        }
    }
    return 0;
}

static const char *element(int n, int k, char *buf, size_t len)
{
    if (n == 1 && k == 0)
        return "";
    snprintf(buf, len, "element %d ", k);
    return buf;
}

/* A handle whose request ended: 1 when reported. */
static int check_ended(mc_call *c, int argi, MPI_Request r, int n, int k)
{
    mc_request_end how;
    if (!mc_requests_ended(r, &how))
        return 0;
    mc_origin end = {.fn = how.fn, .npcs = how.caller ? 1 : 0};
    end.pcs[0] = (uintptr_t)how.caller;
    char el[32];
    mc_report_arg_origin(c, argi, &end, "%sis a request that already ended: %s %s it (the request "
                         "of %s). A copy of a handle is valid only until its request completes or "
                         "is freed; MPI may since have freed the request or given the handle to "
                         "another operation", element(n, k, el, sizeof el), mc_fn_table[how.fn].name,
                         how.fn == MC_FN_MPI_Request_free ? "freed" : "completed",
                         how.made_fn >= 0 ? mc_fn_table[how.made_fn].name : "an unknown call");
    return 1;
}

static void check_free(mc_call *c, int argi, const mc_obj *o)
{
    if (!o->active)
        return;     /* an inactive persistent request: the way to release it */
    mc_origin at;
    mc_request_started_at(o, &at);
    const char *made = mc_fn_table[o->origin.fn].name;
    switch (family(o->origin.fn)) {
    case FAMILY_P2P:
        if (o->cancelled)
            break;      /* cancelled, then freed: the program gave the operation up */
        mc_report_call_origin(MC_CLASS_REQUEST_FREE_ACTIVE, c, &at,
                              "MPI_Request_free of an active request (%s%s, not completed): MPI "
                              "finishes the operation in the background, but the program cannot "
                              "learn when its buffer may be reused or freed, and an error in it can "
                              "only end the job (MPI-4.0 sec. 3.7.3); complete it with MPI_Wait or "
                              "MPI_Test instead", o->persistent ? "started, made by " : "", made);
        break;
    case FAMILY_COLL:
        mc_report_arg_origin(c, argi, &at, "is the request of %s, still active: freeing the request "
                             "of a collective operation before it completes is erroneous "
                             "(MPI-4.0 sec. 6.12)", made);
        break;
    default:
        break;
    }
}

static void check_cancel(mc_call *c, int argi, const mc_obj *o)
{
    if (o->active && family(o->origin.fn) == FAMILY_COLL) {
        mc_origin at;
        mc_request_started_at(o, &at);
        mc_report_arg_origin(c, argi, &at, "is the request of %s: a collective operation cannot "
                             "be cancelled (MPI-4.0 sec. 6.12)", mc_fn_table[o->origin.fn].name);
    }
}

/* MPI_Start/MPI_Startall of a persistent request still active (its last
 * start not completed), or named twice in one MPI_Startall: erroneous
 * (MPI-4.0 sec. 3.9). 1 when reported. */
static int check_start(mc_call *c, int argi, const MPI_Request *reqs, int n, int k, const mc_obj *o)
{
    char el[32];
    if (o->persistent && o->active) {
        mc_report_arg_origin(c, argi, &o->origin, "%sis a persistent request still active: its "
                             "last start was not completed (MPI_Wait/MPI_Test) before this one",
                             element(n, k, el, sizeof el));
        return 1;
    }
    for (int j = 0; j < k; j++) {
        if (reqs[j] == reqs[k]) {
            mc_report_arg_origin(c, argi, &o->origin, "%sis the same request as element %d: one "
                                 "MPI_Startall starts it twice, the second time while it is "
                                 "active", element(n, k, el, sizeof el), j);
            return 1;
        }
    }
    return 0;
}

/* ---- one request, two threads ------------------------------------------- */

/* The requests this thread's current call marked busy (MPI_THREAD_MULTIPLE),
 * unmarked when the call returns. */
#define BUSY_MAX 16
static __thread MPI_Request busy_reqs[BUSY_MAX];
static __thread int nbusy __attribute__((tls_model("initial-exec")));
static __thread char busy_self;     /* its address names the thread */

static int completes(int fn)
{
    switch (fn) {
    case MC_FN_MPI_Wait: case MC_FN_MPI_Waitall: case MC_FN_MPI_Waitany: case MC_FN_MPI_Waitsome:
    case MC_FN_MPI_Test: case MC_FN_MPI_Testall: case MC_FN_MPI_Testany: case MC_FN_MPI_Testsome:
    case MC_FN_MPI_Request_free: case MC_FN_MPI_Cancel:
        return 1;
    default:
        return 0;
    }
}

/* Table lock held. 1 when reported. */
static int check_busy(mc_call *c, int argi, mc_obj *o, MPI_Request r, int n, int k)
{
    if (mc_requests_is_shared(r))
        return 0;
    if (o->busy && o->busy != &busy_self) {
        mc_origin other = {.fn = o->busy_fn, .npcs = 1};
        other.pcs[0] = (uintptr_t)o->busy_caller;
        char el[32];
        mc_report_arg_origin(c, argi, &other, "%sis a request another thread is completing, "
                             "testing or freeing at this moment (in the call shown second): "
                             "two threads may not complete the same request (MPI-4.0 sec. "
                             "11.6.2)", element(n, k, el, sizeof el));
        return 1;
    }
    if (!o->busy && nbusy < BUSY_MAX) {
        o->busy = &busy_self;
        o->busy_caller = c->caller;
        o->busy_fn = c->fn;
        busy_reqs[nbusy++] = r;
    }
    return 0;
}

void mc_check_requests_leave(mc_call *c)
{
    if (nbusy == 0)
        return;
    MC_LOCK();
    for (int i = 0; i < nbusy; i++) {
        mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(busy_reqs[i]));
        if (o && o->busy == &busy_self)
            o->busy = NULL;
    }
    nbusy = 0;
    MC_UNLOCK();
}

void mc_check_requests(mc_call *c)
{
    const MPI_Request *reqs = NULL;
    MPI_Request one = MPI_REQUEST_NULL;
    int argi = -1;
    int n = request_handles(c, &reqs, &one, &argi);
    if (n == 0)
        return;
    int judge_ended = mc_st.thread_level != MPI_THREAD_MULTIPLE;
    int judge_busy = !judge_ended && completes(c->fn);
    int starts = c->fn == MC_FN_MPI_Start || c->fn == MC_FN_MPI_Startall;
    MC_LOCK();
    for (int k = 0; k < n; k++) {
        MPI_Request r = reqs[k];
        if (r == MPI_REQUEST_NULL)
            continue;
        mc_obj *o = mc_obj_find(MC_OBJ_REQUEST, MC_BITS(r));
        if (!o) {
            if (judge_ended && check_ended(c, argi, r, n, k))
                break;
            continue;
        }
        if (judge_busy && check_busy(c, argi, o, r, n, k))
            break;
        if (starts && check_start(c, argi, reqs, n, k, o))
            break;
        if (c->fn == MC_FN_MPI_Request_free)
            check_free(c, argi, o);
        else if (c->fn == MC_FN_MPI_Cancel)
            check_cancel(c, argi, o);
    }
    MC_UNLOCK();
}
