/*
 * module.c - the checks of single calls as one module of core's list
 * (module.h): arguments by role and the use of request handles before each
 * call, call order outside MPI_Init..MPI_Finalize, leaks at the end of the
 * run.
 */
#include "checks.h"
#include "hooks.h"      /* mc_p2p_hook.sync_off */

/* The parameter roles args.c checks. */
#define CHECK_ROLES (MC_ROLE_BIT(MC_ROLE_COMM) | MC_ROLE_BIT(MC_ROLE_DATATYPE) \
    | MC_ROLE_BIT(MC_ROLE_DATATYPE_ANY) | MC_ROLE_BIT(MC_ROLE_OP) | MC_ROLE_BIT(MC_ROLE_GROUP) \
    | MC_ROLE_BIT(MC_ROLE_WIN) | MC_ROLE_BIT(MC_ROLE_COUNT) | MC_ROLE_BIT(MC_ROLE_DEST) \
    | MC_ROLE_BIT(MC_ROLE_SOURCE) | MC_ROLE_BIT(MC_ROLE_ROOT) | MC_ROLE_BIT(MC_ROLE_RANK) \
    | MC_ROLE_BIT(MC_ROLE_TARGET) | MC_ROLE_BIT(MC_ROLE_STAG) | MC_ROLE_BIT(MC_ROLE_RTAG) \
    | MC_ROLE_BIT(MC_ROLE_SBUF) | MC_ROLE_BIT(MC_ROLE_RBUF) | MC_ROLE_BIT(MC_ROLE_ROOTBUF) \
    | MC_ROLE_BIT(MC_ROLE_LEAFBUF) | MC_ROLE_BIT(MC_ROLE_BCASTBUF) | MC_ROLE_BIT(MC_ROLE_WINBASE) \
    | MC_ROLE_BIT(MC_ROLE_COLOR) | MC_ROLE_BIT(MC_ROLE_DIMS))
/* The roles requests.c checks. */
#define REQUEST_ROLES (MC_ROLE_BIT(MC_ROLE_REQ) | MC_ROLE_BIT(MC_ROLE_REQ_ARRAY) \
    | MC_ROLE_BIT(MC_ROLE_REQ_VAL))

static void outside(mc_call *c)
{
    (void)mc_check_call_order(c);
}

#define WIN_ROLES (MC_ROLE_BIT(MC_ROLE_WIN) | MC_ROLE_BIT(MC_ROLE_WIN_FREE))

/* Strict mode's model of synchronous sends (p2p/syncmodel.c) does not
 * follow what one-sided communication, files and partitioned
 * communication carry between ranks: a rank that opens one of them is
 * followed no further (every rank that shares it opens it too). */
static void channel_opened(const mc_call *c)
{
    if (!mc_eng_strict || !mc_p2p_hook.sync_off)   /* first: this runs for every call with a communicator */
        return;
    int fn = c->fn;
    if (fn == MC_FN_MPI_Win_create || fn == MC_FN_MPI_Win_allocate || fn == MC_FN_MPI_Win_allocate_shared
        || fn == MC_FN_MPI_Win_create_dynamic || fn == MC_FN_MPI_File_open || fn == MC_FN_MPI_Psend_init
        || fn == MC_FN_MPI_Precv_init) {
        mc_eng_lock();
        mc_p2p_hook.sync_off();
        mc_eng_unlock();
    }
}

static void enter(mc_call *c)
{
    unsigned long long roles = c->desc->role_mask;
    if (roles & MC_ROLE_BIT(MC_ROLE_COMM))
        channel_opened(c);
    if (roles & MC_ROLE_BIT(MC_ROLE_WIN_FREE))
        mc_check_rma_free(c);
    if (roles & CHECK_ROLES) {
        mc_check_args(c);
        mc_check_overlap(c);
    }
    if (roles & REQUEST_ROLES)
        mc_check_requests(c);
}

static void leave(mc_call *c, int ok)
{
    unsigned long long roles = c->desc->role_mask;
    if (roles & REQUEST_ROLES)
        mc_check_requests_leave(c);
    if (ok && (roles & MC_ROLE_BIT(MC_ROLE_WIN)))
        mc_check_rma_epochs_after(c);
}

const mc_module mc_checks_module = {
    .name = "checks",
    .outside = outside,
    .roles = CHECK_ROLES | REQUEST_ROLES | WIN_ROLES,
    .enter = enter,
    .leave_roles = REQUEST_ROLES | MC_ROLE_BIT(MC_ROLE_WIN),
    .leave = leave,
    .end = mc_check_leaks_at_finalize,
};
