/*
 * board_relay.c - a rank on a node that does not see the launcher's part
 * directory (report/relay.c) sends its board to the launcher, which keeps
 * a copy in its directory (launcher/collect.c): the hang watch then judges
 * a job across nodes, and a rank that dies on any node learns who waited
 * for it (mc_board_waiters asks the launcher).
 *
 * RATIONALE: the wait path and every MPI call write the board with plain
 * stores and must stay free of messages and system calls; a thread of the
 * checker's looks at the page ten times a second and sends it when it
 * changed, with the process's I/O and processor counters (the launcher
 * cannot read /proc on another node). A waiter that a crash leaves waiting
 * has waited long before: what the launcher has is at most 100 ms old.
 * Only relaying ranks run it.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "relay.h"
#include "runtime.h"        /* mc_site_decode */
#include "stack.h"
#include "rank_board.h"
#include "wait_board.h"
#include "state.h"

#define LOOK_NS 100000000L

/* The read counters this thread moved itself (its /proc reads; its sends
 * on a socket are not read or write calls): left out of what it reports,
 * or each look would see the process move. Bytes and calls, summed as
 * counters() sums. */
static uint64_t own_io;

/* /proc/<what> into buf; 0, or -1. */
static int read_proc(const char *what, char *buf, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%s", what);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    own_io += 1 + (n > 0 ? (uint64_t)n : 0);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

static uint64_t cpu_in(const char *what)
{
    char buf[1024];
    unsigned long long ut = 0, st = 0;
    const char *p = read_proc(what, buf, sizeof buf) == 0 ? strrchr(buf, ')') : NULL;
    if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2)
        return ut + st;
    return 0;
}

/* What the launcher reads of /proc/<pid> for a local rank (launcher/hang.c):
 * the sum of the read and write counters, and user plus system time; both
 * without this thread's own. */
static void counters(uint64_t *io, uint64_t *cpu)
{
    char buf[1024];
    uint64_t before = own_io, sum = 0;
    *io = *cpu = 0;
    if (read_proc("self/io", buf, sizeof buf) == 0) {
        static const char *const keys[] = {"rchar:", "wchar:", "syscr:", "syscw:"};
        for (size_t k = 0; k < 4; k++) {
            const char *q = strstr(buf, keys[k]);
            if (q)
                sum += strtoull(q + strlen(keys[k]), NULL, 10);
        }
        *io = sum > before ? sum - before : 0;
    }
    uint64_t all = cpu_in("self/stat"), mine = cpu_in("thread-self/stat");
    *cpu = all > mine ? all - mine : 0;
}

/* The wait's call site as text for the launcher, which cannot read this
 * process's modules: resolved here when the site changes. */
static void wait_site(const mc_board_wait *w, char *out, size_t cap)
{
    static uint64_t mod, off;
    static char text[256];
    out[0] = '\0';
    if (!w->waiting)
        return;
    if (w->mod != mod || w->off != off) {
        mod = w->mod;
        off = w->off;
        text[0] = '\0';
        uintptr_t pc = mc_site_decode(mod, off);
        mc_frame fr;
        memset(&fr, 0, sizeof fr);
        if (pc) {
            mc_stack_resolve(&pc, 1, &fr);
            if (fr.file)
                snprintf(text, sizeof text, "%s\t%s\t%d", fr.function ? fr.function : "", fr.file, fr.line);
            mc_frames_free(&fr, 1);
        }
    }
    snprintf(out, cap, "%s", text);
}

/* A connection that has sent the function names: the copy's first bytes. */
static int connect_board(const char *name)
{
    int fd = mc_relay_connect("board", name);
    if (fd < 0)
        return -1;
    size_t len = 0;
    char *names = mc_board_names(&len);
    uint32_t n = (uint32_t)len;
    int ok = names && mc_relay_send(fd, &n, sizeof n) == 0 && mc_relay_send(fd, names, len) == 0;
    free(names);
    if (!ok) {
        close(fd);
        return -1;
    }
    return fd;
}

static void *relay_main(void *arg)
{
    (void)arg;
    char name[16];
    snprintf(name, sizeof name, "%d", mc_st.world_rank);
    mc_board_status last, now;
    int fd = -1, sent = 0, backoff = 0;
    memset(&last, 0, sizeof last);
    for (;;) {
        struct timespec nap = {0, LOOK_NS};
        nanosleep(&nap, NULL);
        mc_board_page *b = mc_board_page_mine();
        if (!b || backoff-- > 0)
            continue;
        /* The wait is written with waiting last when it starts and first
         * when it ends: a copy between two equal reads of it is whole. */
        int w1 = __atomic_load_n(&b->wait.waiting, __ATOMIC_ACQUIRE);
        memset(&now, 0, sizeof now);
        mc_board_status_take(b, &now);
        if (__atomic_load_n(&b->wait.waiting, __ATOMIC_ACQUIRE) != w1)
            continue;
        if (!now.wait.waiting)
            memset(&now.wait, 0, sizeof now.wait);
        wait_site(&now.wait, now.wait_site, sizeof now.wait_site);
        counters(&now.io, &now.cpu);
        if (sent && memcmp(&now, &last, sizeof now) == 0)
            continue;
        if (fd < 0 && (fd = connect_board(name)) < 0) {
            backoff = 50;   /* the launcher is not reachable: try again in 5 s */
            continue;
        }
        if (mc_relay_send(fd, &now, sizeof now) != 0) {
            close(fd);
            fd = -1;
            continue;
        }
        last = now;
        sent = 1;
    }
    return NULL;
}

void mc_board_relay_start(void)
{
    static int started;
    if (started || !mc_relay_remote() || mc_st.spawned || !mc_board_page_mine())
        return;
    started = 1;
    /* The program's signals (a fatal one, the hang watch's dump) go to
     * the program's threads, never to this one. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    pthread_create(&t, &attr, relay_main, NULL);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
