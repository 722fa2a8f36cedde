/*
 * wait_board.c - each rank's current wait, in a small shared file of the
 * part directory ("wait.<rank>"), so that a rank that crashes or exits
 * without MPI_Finalize can say who was waiting for it.
 *
 * RATIONALE: when a rank dies, both Open MPI's mpirun and MPICH's Hydra
 * tear the job down within milliseconds, before a surviving rank could
 * learn of the death (a PMIx event, a timeout) and report its side. The
 * dying rank still runs our handler, so the survivors write down what they
 * wait for beforehand, where it can read it: a store into a mapped page when
 * a wait goes past its first spins (the slow phase), a store when it ends.
 * No message, no system call on the wait path. The directory is per node,
 * so waiters on other nodes are not named.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fn_table.h"
#include "skipped.h"
#include "stack.h"
#include "runtime_internal.h"        /* call sites as (module, offset): mc_site_encode */
#include "state.h"
#include "wait_board.h"

#define BOARD_MAGIC 0x4d43574bu
#define BOARD_RANKS 64

typedef struct {
    uint32_t magic;
    int32_t waiting;        /* written last when a wait starts, first when it ends */
    int32_t fn, nranks, all, pad_;
    uint64_t mod, off;      /* call site, portable across processes (site.c) */
    int32_t ranks[BOARD_RANKS];
} board;


static board *mine;

static void board_path(char *buf, size_t cap, int rank)
{
    snprintf(buf, cap, "%s/wait.%d", mc_st.part_dir, rank);
}

void mc_board_open(void)
{
    if (!mc_st.part_dir || mc_st.spawned || mine)
        return;
    char path[4096];
    board_path(path, sizeof path, mc_st.world_rank);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    if (ftruncate(fd, sizeof(board)) == 0) {
        void *p = mmap(NULL, sizeof(board), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p != MAP_FAILED) {
            mine = p;
            mine->magic = BOARD_MAGIC;
        }
    }
    close(fd);
}

int mc_board_active(void)
{
    /* One board per process: with several threads waiting at once it
     * would say nothing true (the deadlock detector is off there too). */
    return mine && mc_st.thread_level != MPI_THREAD_MULTIPLE;
}

void mc_board_set(int fn, const void *caller, const int *ranks, int nranks, int all)
{
    if (!mc_board_active())
        return;
    __atomic_store_n(&mine->waiting, 0, __ATOMIC_RELEASE);
    mine->fn = fn;
    mc_site_encode(caller, &mine->mod, &mine->off);
    if (nranks > BOARD_RANKS) {
        all = 1;
        nranks = 0;
    }
    mine->all = all;
    mine->nranks = nranks;
    if (nranks > 0)
        memcpy(mine->ranks, ranks, (size_t)nranks * sizeof *ranks);
    __atomic_store_n(&mine->waiting, 1, __ATOMIC_RELEASE);
}

void mc_board_clear(void)
{
    if (mine)
        __atomic_store_n(&mine->waiting, 0, __ATOMIC_RELEASE);
}

static int read_board(int rank, board *b)
{
    char path[4096];
    board_path(path, sizeof path, rank);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, b, sizeof *b);
    close(fd);
    return n == (ssize_t)sizeof *b && b->magic == BOARD_MAGIC ? 0 : -1;
}

static int waits_for(const board *b, int dead)
{
    if (!b->waiting)
        return 0;
    if (b->all)
        return 1;
    for (int i = 0; i < b->nranks && i < BOARD_RANKS; i++)
        if (b->ranks[i] == dead)
            return 1;
    return 0;
}

int mc_board_waiters(int dead, mc_call_text *out, int max)
{
    if (!mc_st.part_dir || mc_st.spawned)
        return 0;
    int n = 0;
    for (int r = 0; r < mc_st.world_size && n < max; r++) {
        board b;
        if (r == dead || read_board(r, &b) != 0 || !waits_for(&b, dead))
            continue;
        mc_call_text *ct = &out[n++];
        memset(ct, 0, sizeof *ct);
        ct->rank = r;
        ct->call = mc_strdup(b.fn >= 0 && b.fn < MC_FN_COUNT_ ? mc_fn_table[b.fn].name : "(an MPI call)");
        uintptr_t pc = mc_site_decode(b.mod, b.off);
        if (pc && (ct->stack = mc_calloc(1, sizeof *ct->stack))) {
            mc_stack_resolve(&pc, 1, ct->stack);
            ct->nframes = 1;
        }
    }
    return n;
}
