/*
 * board_layout.h - the layout of a rank's board: one small file of the part
 * directory per MPI process, mapped shared, that the process writes with
 * plain stores and others read. The library writes it (runtime/rank_board.c,
 * runtime/wait_board.c); a dying rank reads the other boards to say who
 * waited for it, and the launcher reads them all to tell a hung job
 * (launcher/hang.c). Here, at the bottom, because both sides need the one
 * layout; nothing here depends on MPI.
 *
 * RATIONALE: a rank blocked inside an MPI call the handshakes do not model
 * (MPI_Win_fence, a collective MPI_File_write_all, a communicator
 * constructor) runs no checker code until the call returns, so nothing in
 * the rank can notice that it never does. The launcher can, if each rank
 * says where it is: which MPI call each of its threads is in, and a counter
 * that moves with every call it makes. Two stores per call, no message and
 * no system call.
 */
#ifndef MPICHECK_BOARD_LAYOUT_H
#define MPICHECK_BOARD_LAYOUT_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#define MC_BOARD_MAGIC 0x4d43424bu      /* "MCBK" */
#define MC_BOARD_VERSION 8
#define MC_BOARD_RANKS 64               /* ranks a wait names before it says "all" */
#define MC_BOARD_THREADS 16             /* program threads followed per process */
#define MC_BOARD_FRAMES 32
#define MC_BOARD_ARGS 2048              /* "name=value\n" lines of the call in progress */

/* Where a process stands. */
enum {
    MC_BOARD_INIT = 1,      /* inside MPI_Init (the board opens at its entry) */
    MC_BOARD_RUNNING,       /* between MPI_Init and MPI_Finalize */
    MC_BOARD_FINALIZED,     /* MPI_Finalize returned: it can release nobody any more */
    MC_BOARD_EXITED         /* the process exited (without MPI_Finalize, when not FINALIZED before) */
};

/* A thread's slot value of fn when it is in no MPI call, and when it runs
 * the program's own code inside one (a callback: a reduction operator, an
 * attribute copy function, a generalized request's query). */
#define MC_BOARD_OUTSIDE (-1)
#define MC_BOARD_USER_CODE (-2)

typedef struct {
    int32_t used;           /* 1 while a thread of the program owns the slot */
    int32_t tid;            /* its kernel thread id (the dump signal goes there) */
    int32_t fn;             /* the MPI call it is in (mc_fn_table index), or MC_BOARD_OUTSIDE/USER_CODE */
    int32_t fortran;        /* 1: that call came from Fortran (the report names it MPI_RECV) */
    uint64_t entries;       /* MPI calls it entered: moves with every call, the progress the launcher sees */
    /* The answer to a dump request (below), written by the thread itself
     * from the dump signal's handler: the raw return addresses of its
     * stack (the launcher resolves them in this process's maps) and the
     * call's arguments. answered is written last. */
    uint32_t answered;      /* = the request it answers */
    int32_t nframes;
    uint64_t pcs[MC_BOARD_FRAMES];
    char args[MC_BOARD_ARGS];
} mc_board_thread;

/* The wait the engine is in past its first spins (runtime/wait_board.c). */
typedef struct {
    int32_t waiting;        /* written last when a wait starts, first when it ends */
    int32_t fn, nranks, all;
    uint64_t mod, off;      /* call site, portable across processes (runtime/site.c) */
    uint64_t moving;        /* bytes of matched messages the wait receives (hang_rule.h) */
    int32_t ranks[MC_BOARD_RANKS];
} mc_board_wait;

typedef struct {
    uint32_t magic, version;
    int32_t pid, world_rank, world_size, state;
    /* The names of the MPI functions, NUL-separated in the order of the
     * rank's fn numbers, follow the page in the file: the launcher knows no
     * fn table of its own (it is generated per MPI). */
    uint32_t names_off, names_len, nnames, pad0_;
    char job[48];           /* "" in the job mpicheck started, "spawn 0.1" ... (mc_call_text.job) */
    char pid_view[64];      /* which pids the process sees (report/pid_view.h): when the launcher's
                             * view is the same, a missing or zombie pid means the rank ended */
    int32_t app_threads;    /* threads of the program alive besides the main one */
    int32_t overflow;       /* more program threads called MPI than there are slots: never judged */
    int32_t joining;        /* of the program's threads, those waiting in pthread_join */
    int32_t one_caller;     /* 1: the provided thread level lets one thread at a time call MPI
                             * (below MPI_THREAD_MULTIPLE); 0 until MPI_Init_thread returned */
    uint64_t progress;      /* operations the checker's engine completed (messages matched) */
    uint32_t deadlocks;     /* deadlock findings this rank reported */
    int32_t dump_signal;    /* the signal whose handler answers dump requests; 0: none */
    uint32_t dump_request;  /* the launcher raises it, then signals the threads in MPI */
    /* While a process is in MPI_Comm_spawn: the label of the job it starts
     * ("" otherwise), whose processes may compute before their MPI_Init. */
    char spawning[48];
    /* 1: a copy the launcher keeps of a board on another node (launcher/
     * collect.c): the process is not on this node, its pid means nothing
     * here, io and cpu stand for its /proc counters, state EXITED for a
     * relay that broke off (the process ended), and it has no dump signal. */
    int32_t relayed, pad1_;
    /* The status the process gave exit() (or main returned), written by
     * its exit handler, exit_known last (1). A process that ends by a
     * signal, or by _exit(), never writes them: the launcher tells a rank
     * gone with no word of its own (launcher/vanished.c) by that. */
    int32_t exit_status, exit_known;
    uint64_t io, cpu;
    /* Bytes of one-sided operations the process started since its last
     * RMA synchronization call returned: MPI may move them inside the
     * next one (MPICH does), so the hang watch counts a thread's processor
     * time there as progress, for a time these bytes bound. */
    uint64_t rma_pending;
    /* While a thread is inside a blocking collective whose handshake found
     * every member in the same call (fn, the rank's function number; -1
     * otherwise): the bytes it sends and receives. MPI completes such a
     * call without another call of any member, so the hang watch counts
     * that thread's processor time as progress, for a time these bytes
     * bound (hang_rule.h). */
    uint64_t coll_moving;
    int32_t coll_fn, pad2_;
    char wait_site[256];    /* relayed: the wait's call site, "function\tfile\tline" (resolved there) */
    mc_board_wait wait;
    mc_board_thread threads[MC_BOARD_THREADS];
} mc_board_page;

/* What a rank on another node sends of its board (runtime/board_relay.c):
 * all of it but the dump answers. */
typedef struct {
    int32_t pid, world_rank, world_size, state;
    char job[48];
    int32_t app_threads, overflow, joining, one_caller;
    uint64_t progress;
    uint32_t deadlocks, pad0_;
    char spawning[48];
    uint64_t io, cpu;       /* its /proc/self/io (read and write bytes and calls) and processor time */
    uint64_t rma_pending;
    uint64_t coll_moving;
    int32_t coll_fn, pad1_;
    char wait_site[256];    /* the wait's call site, resolved by the rank: "function\tfile\tline" */
    mc_board_wait wait;
    struct {
        int32_t used, tid, fn, fortran;
        uint64_t entries;
    } threads[MC_BOARD_THREADS];
} mc_board_status;

static inline void mc_board_status_take(const mc_board_page *b, mc_board_status *s)
{
    s->pid = b->pid;
    s->world_rank = b->world_rank;
    s->world_size = b->world_size;
    s->state = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
    __builtin_memcpy(s->job, b->job, sizeof s->job);
    s->app_threads = b->app_threads;
    s->overflow = b->overflow;
    s->joining = b->joining;
    s->one_caller = b->one_caller;
    s->progress = __atomic_load_n(&b->progress, __ATOMIC_RELAXED);
    s->deadlocks = __atomic_load_n(&b->deadlocks, __ATOMIC_RELAXED);
    s->pad0_ = 0;
    s->rma_pending = __atomic_load_n(&b->rma_pending, __ATOMIC_RELAXED);
    s->coll_moving = __atomic_load_n(&b->coll_moving, __ATOMIC_RELAXED);
    s->coll_fn = __atomic_load_n(&b->coll_fn, __ATOMIC_RELAXED);
    s->pad1_ = 0;
    __builtin_memcpy(s->spawning, b->spawning, sizeof s->spawning);
    __builtin_memcpy(&s->wait, (const void *)&b->wait, sizeof s->wait);
    for (int t = 0; t < MC_BOARD_THREADS; t++) {
        s->threads[t].used = __atomic_load_n(&b->threads[t].used, __ATOMIC_ACQUIRE);
        s->threads[t].tid = b->threads[t].tid;
        s->threads[t].fn = __atomic_load_n(&b->threads[t].fn, __ATOMIC_RELAXED);
        s->threads[t].fortran = b->threads[t].fortran;
        s->threads[t].entries = __atomic_load_n(&b->threads[t].entries, __ATOMIC_RELAXED);
    }
}

/* Into the launcher's copy; the state last, as a rank writes its own. */
static inline void mc_board_status_put(mc_board_page *b, const mc_board_status *s)
{
    b->pid = s->pid;
    b->world_rank = s->world_rank;
    b->world_size = s->world_size;
    __builtin_memcpy(b->job, s->job, sizeof b->job);
    b->job[sizeof b->job - 1] = '\0';
    b->app_threads = s->app_threads;
    b->overflow = s->overflow;
    b->joining = s->joining;
    b->one_caller = s->one_caller;
    __atomic_store_n(&b->progress, s->progress, __ATOMIC_RELAXED);
    __atomic_store_n(&b->deadlocks, s->deadlocks, __ATOMIC_RELAXED);
    __builtin_memcpy(b->spawning, s->spawning, sizeof b->spawning);
    b->spawning[sizeof b->spawning - 1] = '\0';
    __atomic_store_n(&b->io, s->io, __ATOMIC_RELAXED);
    __atomic_store_n(&b->cpu, s->cpu, __ATOMIC_RELAXED);
    __atomic_store_n(&b->rma_pending, s->rma_pending, __ATOMIC_RELAXED);
    __atomic_store_n(&b->coll_moving, s->coll_moving, __ATOMIC_RELAXED);
    __atomic_store_n(&b->coll_fn, s->coll_fn, __ATOMIC_RELAXED);
    __builtin_memcpy(b->wait_site, s->wait_site, sizeof b->wait_site);
    b->wait_site[sizeof b->wait_site - 1] = '\0';
    __builtin_memcpy(&b->wait, &s->wait, sizeof b->wait);
    for (int t = 0; t < MC_BOARD_THREADS; t++) {
        b->threads[t].tid = s->threads[t].tid;
        __atomic_store_n(&b->threads[t].fn, s->threads[t].fn, __ATOMIC_RELAXED);
        b->threads[t].fortran = s->threads[t].fortran;
        __atomic_store_n(&b->threads[t].entries, s->threads[t].entries, __ATOMIC_RELAXED);
        __atomic_store_n(&b->threads[t].used, s->threads[t].used, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&b->state, s->state, __ATOMIC_RELEASE);
}

/* The wait of the board in file path (a dying rank reads its node's, the
 * launcher the ones in its directory): 0, or -1 when there is none yet.
 * open/pread only: safe enough for a dying process. */
static inline int mc_board_read_wait(const char *path, mc_board_wait *w)
{
    uint32_t magic = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int ok = pread(fd, &magic, sizeof magic, 0) == (ssize_t)sizeof magic && magic == MC_BOARD_MAGIC
             && pread(fd, w, sizeof *w, offsetof(mc_board_page, wait)) == (ssize_t)sizeof *w;
    close(fd);
    return ok ? 0 : -1;
}

/* Whether wait w waits for world rank dead (a rank that ended). */
static inline int mc_board_waits_for(const mc_board_wait *w, int dead)
{
    if (!w->waiting)
        return 0;
    if (w->all)
        return 1;
    for (int i = 0; i < w->nranks && i < MC_BOARD_RANKS; i++)
        if (w->ranks[i] == dead)
            return 1;
    return 0;
}

#endif
