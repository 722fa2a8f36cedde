/*
 * rank_board.c - this process's board (rank_board.h): "wait.<rank>" in the
 * part directory ("wait.<rank>.<job>" for a spawned job, whose world ranks
 * repeat), one page mapped shared. The launcher reads it to tell a hung job
 * and, when it finds one, asks each thread stuck in MPI for its call and
 * stack: it raises dump_request and sends the thread the dump signal,
 * whose handler here writes the answer into the thread's slot.
 *
 * RATIONALE: a thread blocked inside PMPI runs no code of ours; only a
 * signal gets it to say where it is. The handler does what it must
 * (unw_backtrace, rendering the call's arguments) while the thread is
 * stuck in MPI's progress loop, not in malloc or in the checker; the
 * launcher waits a bounded time for the answer and reports without it
 * otherwise. The signal is a real-time one nobody else handles, chosen at
 * open, and its number is on the board.
 */
#define _GNU_SOURCE /* gettid */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fn_table.h"
#include "pid_view.h"
#include "report.h"     /* mc_render_value */
#include "skipped.h"
#include "stack.h"
#include "state.h"
#include "rank_board.h"
#include "relay.h"

__thread mc_board_thread *mc_board_slot __attribute__((tls_model("initial-exec")));
int mc_board_on;

static mc_board_page *mine;
/* The slot of threads past MC_BOARD_THREADS: written, never read. */
static mc_board_thread overflow_slot;

mc_board_page *mc_board_page_mine(void)
{
    return mine;
}

/* A child the program forks (and that does not exec) is not the rank: it
 * must not write the rank's board. No getpid() on the call path. */
static void forget_in_child(void)
{
    mine = NULL;
    mc_board_on = 0;
    mc_board_slot = NULL;
}

static void on_dump(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)si;
    (void)uc;
    mc_board_thread *s = mc_board_slot;
    mc_board_page *b = mine;
    if (!s || !b || s == &overflow_slot)
        return;
    uint32_t req = __atomic_load_n(&b->dump_request, __ATOMIC_ACQUIRE);
    if (req == 0 || __atomic_load_n(&s->answered, __ATOMIC_RELAXED) == req)
        return;
    int saved = errno;
    uintptr_t pcs[MC_BOARD_FRAMES];
    size_t n = mc_stack_capture_interrupted(pcs, MC_BOARD_FRAMES, s->fn >= 0);
    for (size_t i = 0; i < n; i++)
        s->pcs[i] = pcs[i];
    s->nframes = (int32_t)n;
    size_t len = 0;
    s->args[0] = '\0';
    const mc_call *c = mc_cur_call;
    if (c && c->fn == s->fn && c->vals)
        for (int i = 0; i < c->desc->nparams && len + 2 < sizeof s->args; i++) {
            char *v = mc_render_value(&c->desc->params[i], &c->vals[i]);
            int w = snprintf(s->args + len, sizeof s->args - len, "%s=%s\n", c->desc->params[i].name,
                             v ? v : "?");
            free(v);
            if (w < 0 || (size_t)w >= sizeof s->args - len)
                break;
            len += (size_t)w;
        }
    __atomic_store_n(&s->answered, req, __ATOMIC_RELEASE);
    errno = saved;
}

/* The first real-time signal from SIGRTMIN+5 on that nobody handles. */
static int install_dump_signal(void)
{
    for (int sig = SIGRTMIN + 5; sig <= SIGRTMIN + 12 && sig <= SIGRTMAX; sig++) {
        struct sigaction old, sa;
        if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_dump;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(sig, &sa, NULL) == 0)
            return sig;
    }
    return 0;
}

char *mc_board_names(size_t *len)
{
    *len = 0;
    for (int i = 0; i < MC_FN_COUNT_; i++)
        *len += strlen(mc_fn_table[i].name) + 1;
    char *names = mc_malloc(*len);
    if (names) {
        char *q = names;
        for (int i = 0; i < MC_FN_COUNT_; i++)
            q = stpcpy(q, mc_fn_table[i].name) + 1;
    }
    return names;
}

void mc_board_open(const char *job, int world_size)
{
    if (!mc_st.part_dir || mine || mc_st.world_rank < 0)
        return;
    char path[4096], label[48] = "";
    for (size_t i = 0; job && job[i] && i + 1 < sizeof label; i++)
        label[i] = job[i] == ' ' || job[i] == '/' ? '-' : job[i];
    if (label[0])
        snprintf(path, sizeof path, "%s/wait.%d.%s", mc_st.part_dir, mc_st.world_rank, label);
    else
        snprintf(path, sizeof path, "%s/wait.%d", mc_st.part_dir, mc_st.world_rank);
    void *p = MAP_FAILED;
    int fd = -1;
    if (mc_relay_remote()) {
        /* This node does not see the launcher's directory: nobody here reads
         * the page but this process (its relay sends the wait to the
         * launcher, board_relay.c), and a file would stay behind on the node
         * when the job is killed. */
        p = mmap(NULL, sizeof(mc_board_page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return;
    } else {
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0)
            return;
        if (ftruncate(fd, sizeof(mc_board_page)) == 0)
            p = mmap(NULL, sizeof(mc_board_page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            close(fd);
            return;
        }
    }
    mc_board_page *b = p;
    /* The function names after the page, written once. */
    size_t len = 0;
    char *names = fd >= 0 ? mc_board_names(&len) : NULL;
    if (names) {
        if (pwrite(fd, names, len, sizeof(mc_board_page)) == (ssize_t)len) {
            b->names_off = sizeof(mc_board_page);
            b->names_len = (uint32_t)len;
            b->nnames = MC_FN_COUNT_;
        }
        free(names);
    }
    if (fd >= 0)
        close(fd);
    b->version = MC_BOARD_VERSION;
    b->pid = (int32_t)getpid();
    b->world_rank = mc_st.world_rank;
    b->world_size = world_size;
    b->state = MC_BOARD_INIT;
    snprintf(b->job, sizeof b->job, "%s", job ? job : "");
    mc_pid_view(b->pid_view, sizeof b->pid_view);
    b->app_threads = __atomic_load_n(&mc_st.app_threads, __ATOMIC_RELAXED);
    b->coll_fn = -1;
    for (int i = 0; i < MC_BOARD_THREADS; i++)
        b->threads[i].fn = MC_BOARD_OUTSIDE;
    /* The handler may only use what is ready: the checker's own text
     * range is found by the first capture. */
    uintptr_t warm[1];
    mc_stack_capture(warm, 1);
    b->dump_signal = install_dump_signal();
    __atomic_store_n(&b->magic, MC_BOARD_MAGIC, __ATOMIC_RELEASE);
    pthread_atfork(NULL, NULL, forget_in_child);
    mine = b;
    __atomic_store_n(&mc_board_on, 1, __ATOMIC_RELEASE);
}

mc_board_thread *mc_board_take_slot(void)
{
    mc_board_page *b = mc_board_page_mine();
    if (!b)
        return NULL;
    for (int i = 0; i < MC_BOARD_THREADS; i++) {
        mc_board_thread *s = &b->threads[i];
        int32_t free_ = 0;
        if (__atomic_compare_exchange_n(&s->used, &free_, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            s->tid = (int32_t)gettid();
            s->fn = MC_BOARD_OUTSIDE;
            return mc_board_slot = s;
        }
    }
    __atomic_store_n(&b->overflow, 1, __ATOMIC_RELAXED);
    return mc_board_slot = &overflow_slot;
}

void mc_board_thread_ended(void)
{
    mc_board_thread *s = mc_board_slot;
    mc_board_slot = NULL;
    if (s && s != &overflow_slot) {
        s->fn = MC_BOARD_OUTSIDE;
        __atomic_store_n(&s->used, 0, __ATOMIC_RELEASE);
    }
}

void mc_board_state(int state)
{
    mc_board_page *b = mc_board_page_mine();
    if (!b)
        return;
    if (state == MC_BOARD_RUNNING) {
        b->world_rank = mc_st.world_rank;
        b->world_size = mc_st.world_size;
    }
    /* An exit after MPI_Finalize stays "finalized": that says more. */
    if (state != MC_BOARD_EXITED || b->state != MC_BOARD_FINALIZED)
        __atomic_store_n(&b->state, state, __ATOMIC_RELEASE);
}

void mc_board_exit_status(int status)
{
    mc_board_page *b = mc_board_page_mine();
    if (!b)
        return;
    b->exit_status = status;
    __atomic_store_n(&b->exit_known, 1, __ATOMIC_RELEASE);
}

void mc_board_app_threads(int n)
{
    mc_board_page *b = mc_board_page_mine();
    if (b)
        __atomic_store_n(&b->app_threads, n, __ATOMIC_RELAXED);
}

void mc_board_joining(int n)
{
    mc_board_page *b = mc_board_page_mine();
    if (b)
        __atomic_store_n(&b->joining, n, __ATOMIC_RELAXED);
}

void mc_board_one_caller(int one)
{
    mc_board_page *b = mc_board_page_mine();
    if (b)
        __atomic_store_n(&b->one_caller, one, __ATOMIC_RELAXED);
}

void mc_board_spawning(const char *label)
{
    mc_board_page *b = mc_board_page_mine();
    if (!b)
        return;
    if (label)
        snprintf(b->spawning, sizeof b->spawning, "%s", label);
    else
        b->spawning[0] = '\0';
}

void mc_board_progress(void)
{
    if (mine)
        __atomic_add_fetch(&mine->progress, 1, __ATOMIC_RELAXED);
}

void mc_board_deadlock_reported(void)
{
    mc_board_page *b = mc_board_page_mine();
    if (b)
        __atomic_add_fetch(&b->deadlocks, 1, __ATOMIC_RELAXED);
}

void mc_board_rma_started(uint64_t bytes)
{
    if (mine)
        __atomic_add_fetch(&mine->rma_pending, bytes, __ATOMIC_RELAXED);
}

void mc_board_coll_moving(int fn, uint64_t bytes)
{
    if (!mine || mc_st.thread_level == MPI_THREAD_MULTIPLE)
        return;
    if (fn < 0 || !bytes) {     /* most calls: one load */
        if (__atomic_load_n(&mine->coll_fn, __ATOMIC_RELAXED) >= 0)
            __atomic_store_n(&mine->coll_fn, -1, __ATOMIC_RELEASE);
        return;
    }
    /* The bytes before the function: the launcher reads them after it. */
    __atomic_store_n(&mine->coll_fn, -1, __ATOMIC_RELEASE);
    __atomic_store_n(&mine->coll_moving, bytes, __ATOMIC_RELAXED);
    __atomic_store_n(&mine->coll_fn, fn, __ATOMIC_RELEASE);
}

void mc_board_rma_synced(void)
{
    if (mine && __atomic_load_n(&mine->rma_pending, __ATOMIC_RELAXED))
        __atomic_store_n(&mine->rma_pending, 0, __ATOMIC_RELAXED);
}
