/*
 * rma_epochs.c - call-order: MPI_Win_free while this process's part in
 * one-sided communication on the window is not over.
 *
 * "MPI_WIN_FREE(win) can be invoked by a process only after it has
 * completed its involvement in RMA communications on window win: i.e., the
 * process has called MPI_WIN_FENCE, or called MPI_WIN_WAIT to match a
 * previous call to MPI_WIN_POST or called MPI_WIN_COMPLETE to match a
 * previous call to MPI_WIN_START or called MPI_WIN_UNLOCK to match a
 * previous call to MPI_WIN_LOCK" (MPI-4.0 sec. 12.2.5). Each process's
 * epochs are its own calls, so this is decided locally: per window, the
 * locks (MPI_Win_lock, MPI_Win_lock_all), access and exposure epochs
 * (MPI_Win_start, MPI_Win_post) not closed yet, and the one-sided
 * operations issued outside them since the last MPI_Win_fence, which only
 * a fence completes. State changes only when MPI accepted the call (an
 * MPI_Win_lock that failed opened nothing). Not judged: operations on
 * MPI_PROC_NULL (no data moves), and the epoch rules between the
 * synchronization calls themselves (a lock inside a fence epoch), which
 * correct programs in MPICH's test suite read differently than the MPI
 * Bugs Initiative does.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include "checks.h"
#include "report.h"
#include "skipped.h"
#include "state.h"

typedef struct {
    uint64_t win;
    int locks;              /* MPI_Win_lock calls not yet unlocked */
    int lock_all, started, posted;
    int fence_ops;          /* operations outside lock and PSCW epochs since the last fence */
    mc_origin opened;       /* the call that opened the oldest epoch still open */
    mc_origin first_op;     /* the first of fence_ops */
    UT_hash_handle hh;
} win_state;

static win_state *wins;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static MPI_Win win_of(const mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    for (int i = 0; i < d->nparams; i++) {
        if (d->params[i].role == MC_ROLE_WIN)
            return c->vals[i].win;
        if (d->params[i].role == MC_ROLE_WIN_FREE) {
            const MPI_Win *p = c->vals[i].p;
            return p ? *p : MPI_WIN_NULL;
        }
    }
    return MPI_WIN_NULL;
}

static int target_of(const mc_call *c)
{
    const mc_fn_desc *d = c->desc;
    for (int i = 0; i < d->nparams; i++)
        if (d->params[i].role == MC_ROLE_TARGET)
            return c->vals[i].i;
    return MPI_PROC_NULL;
}

static win_state *state_of(MPI_Win w, int make)
{
    uint64_t key = MC_BITS(w);
    win_state *s = NULL;
    HASH_FIND(hh, wins, &key, sizeof key, s);
    if (!s && make && (s = mc_calloc(1, sizeof *s))) {
        s->win = key;
        HASH_ADD(hh, wins, win, sizeof s->win, s);
    }
    return s;
}

static int open_epochs(const win_state *s)
{
    return s->locks + s->lock_all + s->started + s->posted;
}

static void opening(win_state *s, const mc_call *c)
{
    if (open_epochs(s) == 0)
        mc_origin_capture(&s->opened, c, 0);   /* the caller only: locks can be many */
}

/* Before MPI_Win_free: what of this process's part is not over. */
static void check_free(mc_call *c, win_state *s)
{
    const char *opener = mc_fn_table[s->opened.fn].name;
    if (s->locks > 0 || s->lock_all)
        mc_report_call_origin(MC_CLASS_CALL_ORDER, c, &s->opened,
                              "MPI_Win_free while a passive-target epoch of this process on the "
                              "window is open (%s without its %s): a process may free a window only "
                              "after it has completed its part in one-sided communication on it "
                              "(MPI-4.0 sec. 12.2.5)", opener,
                              s->lock_all && s->locks == 0 ? "MPI_Win_unlock_all" : "MPI_Win_unlock");
    else if (s->started || s->posted)
        mc_report_call_origin(MC_CLASS_CALL_ORDER, c, &s->opened,
                              "MPI_Win_free while an %s epoch of this process on the window is open "
                              "(%s without its %s): a process may free a window only after it has "
                              "completed its part in one-sided communication on it (MPI-4.0 sec. "
                              "12.2.5)", s->started ? "access" : "exposure", opener,
                              s->started ? "MPI_Win_complete" : "MPI_Win_wait");
    else if (s->fence_ops > 0)
        mc_report_call_origin(MC_CLASS_CALL_ORDER, c, &s->first_op,
                              "MPI_Win_free with %d one-sided operation%s (the first shown) issued "
                              "after the last MPI_Win_fence and never completed by another "
                              "MPI_Win_fence: a process may free a window only after it has "
                              "completed its part in one-sided communication on it (MPI-4.0 sec. "
                              "12.2.5)", s->fence_ops, s->fence_ops > 1 ? "s" : "");
}

void mc_check_rma_free(mc_call *c)
{
    MPI_Win w = win_of(c);
    if (w == MPI_WIN_NULL)
        return;
    pthread_mutex_lock(&lock);
    win_state *s = state_of(w, 0);
    if (s) {
        check_free(c, s);
        HASH_DEL(wins, s);
        free(s);
    }
    pthread_mutex_unlock(&lock);
}

void mc_check_rma_epochs_after(mc_call *c)
{
    MPI_Win w = win_of(c);
    if (w == MPI_WIN_NULL)
        return;
    pthread_mutex_lock(&lock);
    win_state *s = state_of(w, 1);
    if (!s) {
        pthread_mutex_unlock(&lock);
        return;
    }
    switch (c->fn) {
    case MC_FN_MPI_Win_lock:
        opening(s, c);
        s->locks++;
        break;
    case MC_FN_MPI_Win_unlock:
        if (s->locks > 0)
            s->locks--;
        break;
    case MC_FN_MPI_Win_lock_all:
        opening(s, c);
        s->lock_all = 1;
        break;
    case MC_FN_MPI_Win_unlock_all:
        s->lock_all = 0;
        break;
    case MC_FN_MPI_Win_start:
        opening(s, c);
        s->started = 1;
        break;
    case MC_FN_MPI_Win_complete:
        s->started = 0;
        break;
    case MC_FN_MPI_Win_post:
        opening(s, c);
        s->posted = 1;
        break;
    case MC_FN_MPI_Win_wait:
        s->posted = 0;
        break;
    case MC_FN_MPI_Win_test: {
        const int *flag = c->vals[1].p;
        if (flag && *flag)
            s->posted = 0;
        break;
    }
    case MC_FN_MPI_Win_fence:
        s->fence_ops = 0;
        break;
    case MC_FN_MPI_Put: case MC_FN_MPI_Put_c: case MC_FN_MPI_Get: case MC_FN_MPI_Get_c:
    case MC_FN_MPI_Accumulate: case MC_FN_MPI_Accumulate_c: case MC_FN_MPI_Get_accumulate:
    case MC_FN_MPI_Get_accumulate_c: case MC_FN_MPI_Fetch_and_op: case MC_FN_MPI_Compare_and_swap:
    case MC_FN_MPI_Rput: case MC_FN_MPI_Rput_c: case MC_FN_MPI_Rget: case MC_FN_MPI_Rget_c:
    case MC_FN_MPI_Raccumulate: case MC_FN_MPI_Raccumulate_c: case MC_FN_MPI_Rget_accumulate:
    case MC_FN_MPI_Rget_accumulate_c:
        /* A one-sided operation: only a fence completes it outside the
         * other epochs. */
        if (target_of(c) != MPI_PROC_NULL && s->locks == 0 && !s->lock_all && !s->started
            && s->fence_ops++ == 0)
            mc_origin_capture(&s->first_op, c, 0);
        break;
    default:
        break;
    }
    pthread_mutex_unlock(&lock);
}
