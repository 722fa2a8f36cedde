/*
 * wait_board.c - each rank's current wait, on its board (rank_board.c:
 * a small shared file of the part directory, "wait.<rank>"), so that a rank that crashes or exits
 * without MPI_Finalize can say who was waiting for it.
 *
 * RATIONALE: when a rank dies, both Open MPI's mpirun and MPICH's Hydra
 * tear the job down within milliseconds, before a surviving rank could
 * learn of the death (a PMIx event, a timeout) and report its side. The
 * dying rank still runs our handler, so the survivors write down what they
 * wait for beforehand, where it can read it: a store into a mapped page when
 * a wait goes past its first spins (the slow phase), a store when it ends.
 * No message, no system call on the wait path. The directory is per node:
 * ranks on other nodes relay their waits to the launcher (board_relay.c),
 * which the dying rank asks (report/relay.c).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fn_table.h"
#include "skipped.h"
#include "stack.h"
#include "runtime_internal.h"        /* call sites as (module, offset): mc_site_encode */
#include "state.h"
#include "wait_board.h"
#include "rank_board.h"
#include "relay.h"

int mc_board_active(void)
{
    /* One wait per process on the page: with several threads waiting at
     * once it would say nothing true. */
    return mc_board_page_mine() && mc_st.thread_level != MPI_THREAD_MULTIPLE;
}

static void set_wait(int fn, const void *caller, const int *ranks, int nranks, int all, uint64_t moving)
{
    mc_board_wait *mine = &mc_board_page_mine()->wait;
    __atomic_store_n(&mine->waiting, 0, __ATOMIC_RELEASE);
    mine->fn = fn;
    __atomic_store_n(&mine->moving, moving, __ATOMIC_RELAXED);
    mc_site_encode(caller, &mine->mod, &mine->off);
    if (nranks > MC_BOARD_RANKS) {
        all = 1;
        nranks = 0;
    }
    mine->all = all;
    mine->nranks = nranks;
    if (nranks > 0)
        memcpy(mine->ranks, ranks, (size_t)nranks * sizeof *ranks);
    __atomic_store_n(&mine->waiting, 1, __ATOMIC_RELEASE);
}

void mc_board_set(mc_call *c, mc_describe_fn describe, void *ctx)
{
    if (!mc_board_active())
        return;
    mc_waitfor w;
    memset(&w, 0, sizeof w);
    w.list_moving = 1;      /* a sender that dies mid-transfer was waited for too */
    describe(ctx, &w, 1);
    int all = 0;
    for (int i = 0; i < w.nclauses; i++)
        if (w.clause_len[i] < 0)
            all = 1;
    set_wait(c ? c->fn : -1, c ? c->caller : NULL, w.ranks, w.nranks, all, w.moving_bytes);
    mc_waitfor_free(&w);
}

void mc_board_clear(void)
{
    mc_board_page *mine = mc_board_page_mine();
    if (mine)
        __atomic_store_n(&mine->wait.waiting, 0, __ATOMIC_RELEASE);
}

static void board_path(char *buf, size_t cap, int rank)
{
    snprintf(buf, cap, "%s/wait.%d", mc_st.part_dir, rank);
}

static int read_board(int rank, mc_board_wait *b)
{
    char path[4096];
    board_path(path, sizeof path, rank);
    return mc_board_read_wait(path, b);
}

/* One waiter's call text: its call, and its call site resolved in this
 * process's copy of the module. */
static void fill_waiter(mc_call_text *ct, int rank, int fn, uint64_t mod, uint64_t off)
{
    memset(ct, 0, sizeof *ct);
    ct->rank = rank;
    ct->call = mc_strdup(fn >= 0 && fn < MC_FN_COUNT_ ? mc_fn_table[fn].name : "(an MPI call)");
    uintptr_t pc = mc_site_decode(mod, off);
    if (pc)
        ct->nframes = mc_stack_resolve_inlined(&pc, 1, &ct->stack);
}

int mc_board_waiters(int dead, mc_call_text *out, int max)
{
    if (!mc_st.part_dir || mc_st.spawned)
        return 0;
    int n = 0;
    for (int r = 0; r < mc_st.world_size && n < max; r++) {
        mc_board_wait b;
        if (r == dead || read_board(r, &b) != 0 || !mc_board_waits_for(&b, dead))
            continue;
        fill_waiter(&out[n++], r, b.fn, b.mod, b.off);
    }
    /* A job across nodes: the launcher knows the waits of the other nodes. */
    enum { ASK_MAX = 64 };
    int ranks[ASK_MAX], fns[ASK_MAX];
    uint64_t mods[ASK_MAX], offs[ASK_MAX];
    int na = n < max && mc_relay_known() ? mc_relay_ask(dead, ranks, fns, mods, offs, ASK_MAX) : 0;
    for (int i = 0; i < na && n < max; i++) {
        int seen = ranks[i] == dead;
        for (int k = 0; k < n && !seen; k++)
            seen = out[k].rank == ranks[i];
        if (!seen)
            fill_waiter(&out[n++], ranks[i], fns[i], mods[i], offs[i]);
    }
    for (int i = 1; i < n; i++)         /* by rank, wherever each was found */
        for (int k = i; k > 0 && out[k - 1].rank > out[k].rank; k--) {
            mc_call_text t = out[k];
            out[k] = out[k - 1];
            out[k - 1] = t;
        }
    return n;
}
