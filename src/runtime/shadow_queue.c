/*
 * shadow_queue.c - the order of the checker's own nonblocking collectives
 * on a communicator while an MPI_Comm_idup of it runs.
 *
 * The shadow of a communicator the application made with MPI_Comm_idup is
 * an MPI_Comm_idup of the parent's shadow (engine.c): the new handle may
 * not be used before the application's request completes, so nothing may
 * block there. Open MPI 4.1 runs the later rounds of an idup's context-id
 * agreement from its progress engine (open-mpi/ompi#2025), so a collective
 * the checker starts on the same shadow meanwhile (a handshake's
 * MPI_Iallreduce, the next idup) can be started before such a round on one
 * member and after it on another: the shadow's collectives then pair
 * wrongly (MPI_ERR_TRUNCATE inside libnbc, or a hang). MPI itself only
 * promises that collectives on a communicator match in the order every
 * member starts them (MPI-3.1 sec. 5.12), and progress does not start
 * anything in program order.
 *
 * So, per communicator: while an idup of it the checker started is still
 * running, the checker's next nonblocking operations on it wait here and
 * are started in the order they came, as soon as the idup has completed.
 * The queue is driven from the engine's service (every wait turn and p2p
 * call) and by whoever needs a queued shadow now (mc_pcomm_get). The
 * application's own calls are never held back.
 */
#include <stdlib.h>
#include "runtime_internal.h"
#include "skipped.h"

int mc_sq_active;

typedef struct sq_op {
    MPI_Comm comm;
    mc_sq_start_fn start;
    void *ctx;
    struct sq_op *next;
} sq_op;

/* An idup of `parent` the checker started: the parent is busy until the
 * copy's request (in its pcomm) has completed. */
typedef struct sq_copy {
    MPI_Comm parent;
    mc_pcomm *pc;
    MPI_Request *req;       /* &pc->shadow_req, or another copy's (an intercommunicator's flat) */
    struct sq_copy *next;
} sq_copy;

static sq_op *q_head, *q_tail;
static sq_copy *copies;

/* Entries kept back for when the checker's memory runs out: an operation
 * started out of its order, or a parent not held back, would let this
 * member's collectives on the shadow run in another order than its peers'
 * (the order the queue exists for). Engine lock. */
#define SQ_RESERVE 8
static sq_op *op_reserve[SQ_RESERVE];
static sq_copy *copy_reserve[SQ_RESERVE];
static int nop_reserve = -1, ncopy_reserve;

static void reserve_fill(void)
{
    if (nop_reserve >= 0)
        return;
    nop_reserve = 0;
    for (int i = 0; i < SQ_RESERVE; i++) {
        sq_op *o = mc_malloc(sizeof *o);
        sq_copy *k = mc_malloc(sizeof *k);
        if (o)
            op_reserve[nop_reserve++] = o;
        if (k)
            copy_reserve[ncopy_reserve++] = k;
    }
}

static sq_op *op_alloc(void)
{
    reserve_fill();
    sq_op *o = mc_malloc(sizeof *o);
    return o ? o : nop_reserve > 0 ? op_reserve[--nop_reserve] : NULL;
}

static void op_free(sq_op *o)
{
    if (nop_reserve >= 0 && nop_reserve < SQ_RESERVE)
        op_reserve[nop_reserve++] = o;
    else
        free(o);
}

static sq_copy *copy_alloc(void)
{
    reserve_fill();
    sq_copy *k = mc_malloc(sizeof *k);
    return k ? k : ncopy_reserve > 0 ? copy_reserve[--ncopy_reserve] : NULL;
}

static void copy_free(sq_copy *k)
{
    if (ncopy_reserve < SQ_RESERVE)
        copy_reserve[ncopy_reserve++] = k;
    else
        free(k);
}

static void update_active(void)
{
    mc_sq_active = q_head != NULL || copies != NULL;
}

/* Tests the running copies; forgets the finished ones. 1 if any finished. */
static int test_copies(void)
{
    int ended = 0;
    for (sq_copy **pp = &copies; *pp;) {
        sq_copy *k = *pp;
        int flag = 1;
        if (*k->req != MPI_REQUEST_NULL && PMPI_Test(k->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            *k->req = MPI_REQUEST_NULL;
            flag = 1;
        }
        if (flag) {
            *pp = k->next;
            copy_free(k);
            ended = 1;
        } else {
            pp = &k->next;
        }
    }
    return ended;
}

static int copying(MPI_Comm comm)
{
    for (sq_copy *k = copies; k; k = k->next)
        if (k->parent == comm && *k->req != MPI_REQUEST_NULL)
            return 1;
    return 0;
}

static int queued(MPI_Comm comm)
{
    for (sq_op *o = q_head; o; o = o->next)
        if (o->comm == comm)
            return 1;
    return 0;
}

int mc_sq_uses(MPI_Comm comm)
{
    if (!mc_sq_active)
        return 0;
    for (sq_copy *k = copies; k; k = k->next)
        if (k->parent == comm)
            return 1;
    return queued(comm);
}

int mc_sq_submit(MPI_Comm comm, mc_sq_start_fn start, void *ctx, int *rc)
{
    /* No test of the copies here: a test drives MPI's progress, which the
     * application's nonblocking call does not (handshake.c says why that
     * matters); a copy that has ended is noticed by the next drive. */
    if (mc_sq_active) {
        if (copying(comm) || queued(comm)) {
            sq_op *o = op_alloc();
            if (o) {
                o->comm = comm;
                o->start = start;
                o->ctx = ctx;
                o->next = NULL;
                if (q_tail)
                    q_tail->next = o;
                else
                    q_head = o;
                q_tail = o;
                update_active();
                return 0;
            }
            /* Without memory: started now, as before there was a queue. */
        }
    }
    *rc = start(ctx);
    update_active();
    return 1;
}

void mc_sq_copy_started(MPI_Comm parent, mc_pcomm *pc)
{
    mc_sq_copy_started_req(parent, pc, &pc->shadow_req);
}

void mc_sq_copy_started_req(MPI_Comm parent, mc_pcomm *pc, MPI_Request *req)
{
    sq_copy *k = copy_alloc();
    if (!k)
        return;     /* the parent is then not held back: as before the queue */
    k->parent = parent;
    k->pc = pc;
    k->req = req;
    k->next = copies;
    copies = k;
    update_active();
}

/* At most this many communicators are blocked in one pass; more are left
 * for the next pass (every pass starts at least the head of each). */
#define SQ_MAX_BLOCKED 32

void mc_sq_drive(void)
{
    if (!mc_sq_active)
        return;
    int ended = test_copies();
    MPI_Comm blocked[SQ_MAX_BLOCKED];
    int nblocked = 0, full = 0;
    sq_op *prev = NULL;
    for (sq_op *o = q_head; o;) {
        int held = full || copying(o->comm);
        for (int i = 0; !held && i < nblocked; i++)
            held = blocked[i] == o->comm;
        if (held) {
            /* Later operations on this communicator keep their place. */
            if (nblocked < SQ_MAX_BLOCKED)
                blocked[nblocked++] = o->comm;
            else
                full = 1;
            prev = o;
            o = o->next;
            continue;
        }
        sq_op *next = o->next;
        if (prev)
            prev->next = next;
        else
            q_head = next;
        if (q_tail == o)
            q_tail = prev;
        int rc = o->start(o->ctx);
        (void)rc;       /* the starter records its own failure */
        op_free(o);
        o = next;
    }
    update_active();
    if (ended)
        mc_coll_hook.free_retired();     /* a shadow freed while copied can go now */
}

/* Forgets a pcomm whose copy has completed (it is being freed). */
void mc_sq_forget(mc_pcomm *pc)
{
    for (sq_copy **pp = &copies; *pp;) {
        if ((*pp)->pc == pc) {
            sq_copy *k = *pp;
            *pp = k->next;
            copy_free(k);
        } else {
            pp = &(*pp)->next;
        }
    }
    update_active();
}
