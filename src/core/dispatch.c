/*
 * dispatch.c - the two halves every wrapper runs around the real PMPI call
 * (dispatch.h), and the modules they run (modules.h).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "dispatch.h"
#include "runtime.h"      /* mc_eng_on, mc_eng_before_block */
#include "coll.h"         /* held nonblocking collectives */
#include "lifecycle.h"
#include "modules.h"
#include "rank_board.h"
#include "p2p.h"          /* strict mode's stream of sends */
#include "typecache.h"   /* one-sided operations' bytes */

/* Light calls read a communicator or datatype handle and do nothing else
 * the checker follows: no message, no collective, no object made or freed
 * (MPI_Comm_rank, MPI_Type_size, MPI_Get_address, MPI_Wtime ...). Programs
 * make millions of them in loops (MPICH's datatype tests call
 * MPI_Type_size once per element they verify and ran 2.5 to 3 times longer
 * checked), so they get the null-handle check inline and nothing else. */
#define LIGHT_ROLES (MC_ROLE_BIT(MC_ROLE_NONE) | MC_ROLE_BIT(MC_ROLE_COMM) \
    | MC_ROLE_BIT(MC_ROLE_DATATYPE_ANY))
static unsigned char light[MC_FN_COUNT_];
static uint32_t light_handles[MC_FN_COUNT_];    /* bit i: parameter i is a handle to check */
static int light_known;
static pthread_once_t light_once = PTHREAD_ONCE_INIT;

static void find_light(void)
{
    for (int fn = 0; fn < MC_FN_COUNT_; fn++) {
        const mc_fn_desc *d = &mc_fn_table[fn];
        light[fn] = !(d->role_mask & ~LIGHT_ROLES)
                    && !(d->flags & (MC_FLAG_MANUAL | MC_FLAG_BLOCK | MC_FLAG_ENGINE))
                    && !mc_modules_claim(fn)
                    && fn != MC_FN_MPI_Init && fn != MC_FN_MPI_Init_thread && fn != MC_FN_MPI_Abort
                    && fn != MC_FN_MPI_Finalize && fn != MC_FN_MPI_Session_init
                    && fn != MC_FN_MPI_Session_finalize && d->nparams <= 32;
        for (int i = 0; light[fn] && i < d->nparams; i++)
            if (d->params[i].role == MC_ROLE_COMM || d->params[i].role == MC_ROLE_DATATYPE_ANY)
                light_handles[fn] |= 1u << i;
    }
    __atomic_store_n(&light_known, 1, __ATOMIC_RELEASE);
}

static int is_light(int fn)
{
    if (!__atomic_load_n(&light_known, __ATOMIC_ACQUIRE))
        pthread_once(&light_once, find_light);
    return light[fn];
}

/* A light call's handles: only a null one needs the full check (rare). */
static int light_handles_ok(const mc_call *c)
{
    for (uint32_t todo = light_handles[c->fn]; todo; todo &= todo - 1) {
        int i = __builtin_ctz(todo);
        if (c->desc->params[i].role == MC_ROLE_COMM ? c->vals[i].comm == MPI_COMM_NULL
                                                    : c->vals[i].type == MPI_DATATYPE_NULL)
            return 0;
    }
    return 1;
}

/* Calls before which the held nonblocking collectives (coll/held.c) must
 * have been made: those that free a handle they may use, and collectives
 * on a communicator that have no handshake. */
static int frees_or_orders(int fn)
{
    switch (fn) {
    case MC_FN_MPI_Type_free: case MC_FN_MPI_Op_free: case MC_FN_MPI_Comm_free:
    case MC_FN_MPI_Comm_idup: case MC_FN_MPI_Comm_idup_with_info: case MC_FN_MPI_Comm_create_group:
    case MC_FN_MPI_Session_finalize: case MC_FN_MPI_Start:
    case MC_FN_MPI_Startall: case MC_FN_MPI_Finalize:
        return 1;
    default:
        return 0;
    }
}

/* Whether MPI runs although the checker saw no MPI_Init (lifecycle.c,
 * mc_runtime_unseen_init). Asked only before MPI_Init, for a call that
 * may not be made then. */
static int mpi_started_unseen(void)
{
    int init = 0;
    return PMPI_Initialized(&init) == MPI_SUCCESS && init;
}

static __thread mc_lang_frame *lang_frame __attribute__((tls_model("initial-exec")));

int mc_lang_enter(mc_lang_frame *f, int fn, int fn_c, const void *caller, int lang)
{
    if (lang_frame) {
        lang_frame->lang |= lang;
        return 0;
    }
    f->fn = fn;
    f->fn_c = fn_c;
    f->caller = caller;
    f->used = 0;
    f->lang = lang;
    lang_frame = f;
    return 1;
}

void mc_lang_leave(mc_lang_frame *f, int raised)
{
    if (raised && lang_frame == f)
        lang_frame = NULL;
}

void mc_call_enter(mc_call *c, int fn, mc_value *vals, const void *caller)
{
    mc_depth++;
    c->fortran = 0;
    mc_lang_frame *lf = lang_frame;
    if (__builtin_expect(lf != NULL, 0) && mc_depth == 1 && !lf->used && (fn == lf->fn || fn == lf->fn_c)) {
        lf->used = 1;
        caller = lf->caller;
        c->fortran = lf->lang;
    }
    c->outer = mc_cur_call;
    c->seq = ++mc_call_seq;
    mc_cur_call = c;
    c->fn = fn;
    c->desc = &mc_fn_table[fn];
    c->vals = vals;
    c->caller = caller;
    c->nreq_before = 0;
    c->req_before = c->req_inline;
    c->skip = 0;
    c->engine = 0;
    c->invalid = 0;
    c->new_comm_unsafe = 0;
    c->dynamic_checked = 0;
    c->coll_key = 0;
    c->hold = 0;
    c->held = NULL;
    c->synced = 0;
    c->polled = 0;
    /* Several threads may be in MPI at once: the last one to enter wins. */
    __atomic_store_n(&mc_st.last_fn, fn, __ATOMIC_RELAXED);
    __atomic_store_n(&mc_st.last_fortran, c->fortran & MC_LANG_FORTRAN, __ATOMIC_RELAXED);
    __atomic_store_n(&mc_st.last_caller, caller, __ATOMIC_RELAXED);
    mc_board_enter(fn, c->fortran & MC_LANG_FORTRAN);  /* the launcher's view of this thread (hangs) */
    if (fn == MC_FN_MPI_Abort)
        mc_st.aborting = 1;
    if (mc_st.phase == MC_PHASE_PREINIT && !(c->desc->flags & MC_FLAG_PREINIT) && !mc_st.sessions
        && fn != MC_FN_MPI_Init && fn != MC_FN_MPI_Init_thread && mpi_started_unseen()) {
        mc_runtime_unseen_init(c->desc->name);
        c->skip = 1;
        return;
    }
    if (!mc_checking() || fn == MC_FN_MPI_Init || fn == MC_FN_MPI_Init_thread) {
        /* Before MPI_Init or after MPI_Finalize only call order is checked:
         * nothing else can be queried, and the table is empty or gone. */
        mc_modules_outside(c);
        c->skip = 1;
        return;
    }
    if (is_light(fn)) {
        /* Only a null handle needs a look (c->engine is 0: only the
         * modules that check these roles enter). */
        if (!light_handles_ok(c))
            mc_modules_enter(c);
        c->skip = 1;
        return;
    }
    /* Strict mode's stream of sends ends at any other call, which first
     * waits for their acknowledgments (p2p/stream.c); not inside another
     * call (a callback's), which may hold the engine lock. */
    if (__builtin_expect(__atomic_load_n(&mc_stream_open, __ATOMIC_RELAXED), 0) && !c->outer
        && fn != MC_FN_MPI_Send && fn != MC_FN_MPI_Send_c)
        mc_stream_end(fn == MC_FN_MPI_Abort);
    if (fn == MC_FN_MPI_Session_finalize)
        mc_runtime_session_closing();
    c->engine = mc_eng_on && !mc_st.finalizing;
    /* A blocking call the engine does not take over (a collective): post the
     * deferred receives whose envelopes came, so a peer's large send is not
     * left waiting for a receive the checker holds back. */
    if (c->engine && (c->desc->flags & (MC_FLAG_BLOCK | MC_FLAG_ENGINE)) == MC_FLAG_BLOCK)
        mc_eng_before_block();
    if (c->engine && (fn == MC_FN_MPI_Test || fn == MC_FN_MPI_Testany || fn == MC_FN_MPI_Testall
                      || fn == MC_FN_MPI_Testsome)) {
        /* A poll of a request that is not complete yet changes nothing the
         * modules follow (runtime/poll.c); the lock is the engine's. */
        mc_eng_lock();
        c->polled = mc_eng_test_pending(c);
        mc_eng_unlock();
        if (c->polled) {
            c->skip = 1;
            return;
        }
    }
    if (mc_coll_nheld && frees_or_orders(fn)) {
        /* A handle the held calls use is freed, or a collective the
         * handshakes do not see is called: they go to MPI now. */
        mc_eng_lock();
        mc_coll_held_flush(MPI_COMM_NULL);
        mc_eng_unlock();
    }
    mc_modules_enter(c);
}

int mc_hold_start(mc_call *c, mc_start_fn start, MPI_Request *request)
{
    return mc_coll_hold(c, start, request);
}

/* What the hang watch needs of one-sided communication (rank_board.h):
 * the bytes each operation started, until a synchronization call that
 * completes them returns. */
static void rma_account(const mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    const uint64_t bufs = MC_ROLE_BIT(MC_ROLE_SBUF) | MC_ROLE_BIT(MC_ROLE_RBUF);
    if ((d->role_mask & MC_ROLE_BIT(MC_ROLE_TARGET)) && (d->role_mask & bufs)) {
        uint64_t bytes = 0;
        for (int i = 0; i < d->nparams; i++) {
            const mc_param_desc *pd = &d->params[i];
            mc_type_extents x;
            if (!(MC_ROLE_BIT(pd->role) & bufs)
                || mc_typecache_extents(c->vals[pd->ref[1]].type, &x) != 0)
                continue;
            int ci = pd->ref[0];
            MPI_Count n = d->params[ci].ctype == MC_CT_COUNT ? c->vals[ci].c : c->vals[ci].i;
            if (n > 0 && x.size > 0)
                bytes += (uint64_t)n * (uint64_t)x.size;
        }
        mc_board_rma_started(bytes);
        return;
    }
    switch (c->fn) {
    case MC_FN_MPI_Win_fence: case MC_FN_MPI_Win_complete: case MC_FN_MPI_Win_wait:
    case MC_FN_MPI_Win_unlock: case MC_FN_MPI_Win_unlock_all: case MC_FN_MPI_Win_flush:
    case MC_FN_MPI_Win_flush_all: case MC_FN_MPI_Win_flush_local: case MC_FN_MPI_Win_flush_local_all:
        mc_board_rma_synced();
        break;
    default:
        break;
    }
}

void mc_call_leave(mc_call *c, int ok)
{
    if (!c->skip)
        mc_modules_leave(c, ok);
    /* Sends freed while active may have ended inside this call: looked at
     * before the program runs on (runtime.h, mc_eng_after_call). */
    if (__builtin_expect(mc_eng_orphans_live, 0) && !c->outer && mc_eng_on && !mc_st.finalizing
        && !is_light(c->fn))    /* MPI_Comm_rank and the like make no progress */
        mc_eng_after_call();
    if (ok && mc_board_on && (c->desc->role_mask & MC_ROLE_BIT(MC_ROLE_WIN)))
        rma_account(c);
    if (ok && c->fn == MC_FN_MPI_Session_init)
        mc_runtime_session_opened();
    if (c->req_before != c->req_inline)
        free(c->req_before);
    mc_cur_call = (mc_call *)c->outer;
    mc_board_back_in(c->outer ? ((const mc_call *)c->outer)->fn : MC_BOARD_OUTSIDE);
    mc_depth--;
}
