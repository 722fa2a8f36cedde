/*
 * hang.c - the launcher's hang watch (hang.h): a thread that reads every
 * board of the part directory (up to four times a second), and when the job stays
 * frozen (hang_rule.h) with no progress for --hang-timeout, asks each stuck
 * thread for its call and stack, reports one `hang` finding and ends the
 * job.
 *
 * Progress is anything that moves: an MPI call entered (the slots'
 * counters), an operation the engine completed, a rank that starts or
 * ends, the bytes and system calls of each rank's reads and writes
 * (/proc/<pid>/io), so a collective write or a TCP transfer that lasts
 * longer than the timeout inside one call is never called a hang, and the
 * processor time of a thread inside one of MPI's local procedures
 * (hang_rule.h: an MPI_Get that copies 64 MB element by element takes
 * minutes, and no other process's call can be what it waits for), and,
 * for a bounded time, of a thread inside an RMA synchronization call that
 * may be moving its process's one-sided operations (MPICH's MPI_Win_fence
 * does an epoch's MPI_Get calls).
 *
 * RATIONALE: in the launcher, not in the ranks: a rank stuck inside PMPI
 * runs none of our code, and a thread of our own in each rank would still
 * need to know the others. The launcher is already the job's supervisor
 * and sees every board of its node; ranks on other nodes send theirs, and
 * the collector keeps a copy here (launcher/collect.c, marked relayed:
 * their liveness, I/O and processor time come with it, and they have no
 * dump signal, so their calls are named without stacks).
 */
#define _GNU_SOURCE
#include "hang.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "board_layout.h"
#include "hang_report.h"
#include "hang_rule.h"
#include "pid_view.h"
#include "skipped.h"

#define MAX_BOARDS 4096

static struct {
    pthread_t thread;
    int running;
    volatile int stop;
    pthread_mutex_t nap_lock;   /* the watch naps on nap_cond, so that stopping */
    pthread_cond_t nap_cond;    /* it does not wait out a nap (up to 1 s a run) */
    char *dir;
    double timeout_s;
    int abort_job, color;
    void (*stop_job)(void);
    mc_hang_board boards[MAX_BOARDS];
    unsigned char seen_alive[MAX_BOARDS];
    size_t nboards;
    char pid_view[MC_PID_VIEW_LEN];     /* the launcher's own (pid_view.h) */
} w;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int mc_hang_board_map(const char *dir, const char *name, int writable, mc_hang_board *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    struct stat sb;
    if (fd < 0)
        return -1;
    if (fstat(fd, &sb) != 0 || (size_t)sb.st_size < sizeof(mc_board_page)) {
        close(fd);
        return -1;
    }
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return -1;
    mc_board_page *b = p;
    int ready = __atomic_load_n(&b->magic, __ATOMIC_ACQUIRE) == MC_BOARD_MAGIC
                && b->version == MC_BOARD_VERSION
                && (size_t)b->names_off + b->names_len <= (size_t)sb.st_size;
    char *copy = ready ? mc_strdup(name) : NULL;
    if (!copy) {
        munmap(p, (size_t)sb.st_size);
        return -1;
    }
    *out = (mc_hang_board){.name = copy, .page = b, .maplen = (size_t)sb.st_size};
    return 0;
}

void mc_hang_board_unmap(mc_hang_board *b)
{
    munmap(b->page, b->maplen);
    free(b->name);
    b->page = NULL;
    b->name = NULL;
}

/* Maps the boards that appeared since the last look (a board is read once
 * its magic is there: the rank writes it last). */
static void scan(void)
{
    DIR *d = opendir(w.dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && w.nboards < MAX_BOARDS) {
        if (strncmp(e->d_name, "wait.", 5) != 0)
            continue;
        int known = 0;
        for (size_t i = 0; i < w.nboards && !known; i++)
            known = strcmp(w.boards[i].name, e->d_name) == 0;
        if (!known && mc_hang_board_map(w.dir, e->d_name, 1, &w.boards[w.nboards]) == 0)
            w.nboards++;
    }
    closedir(d);
}

const char *mc_hang_fn_name(const mc_board_page *b, size_t maplen, int fn)
{
    if (fn < 0 || (uint32_t)fn >= b->nnames || !b->names_off || b->names_off + b->names_len > maplen)
        return NULL;
    const char *p = (const char *)b + b->names_off, *end = p + b->names_len;
    for (int i = 0; i < fn && p < end; i++)
        p += strnlen(p, (size_t)(end - p)) + 1;
    return p < end ? p : NULL;
}

/* /proc/<pid>/<what> into buf as a string; 0, or -1 when it cannot be read. */
static int read_proc(int pid, const char *what, char *buf, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, what);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

int mc_hang_pid_alive(int pid)
{
    char buf[512];
    if (read_proc(pid, "stat", buf, sizeof buf) != 0)
        return 0;
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* The processor time a process used (what "stat"), or one of its threads
 * ("task/<tid>/stat"): user and system, in clock ticks. */
static unsigned long long cpu_in(int pid, const char *what)
{
    char buf[1024];
    unsigned long long ut = 0, st = 0;
    if (read_proc(pid, what, buf, sizeof buf) != 0)
        return 0;
    const char *p = strrchr(buf, ')');
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return 0;
    return ut + st;
}

static unsigned long long cpu_of(int pid)
{
    return cpu_in(pid, "stat");
}

/* The processor time of board b's thread slot s. A copy of a board from
 * another node carries only its process's time. */
static unsigned long long thread_cpu(const mc_board_page *b, const mc_board_thread *s)
{
    if (b->relayed)
        return __atomic_load_n(&b->cpu, __ATOMIC_RELAXED);
    char what[48];
    snprintf(what, sizeof what, "task/%d/stat", (int)__atomic_load_n(&s->tid, __ATOMIC_RELAXED));
    return cpu_in(b->pid, what);
}

/* That time while the thread is inside one of MPI's local procedures
 * (hang_rule.h), else 0. */
static unsigned long long local_call_cpu(const mc_hang_board *hb, const mc_board_thread *s)
{
    const mc_board_page *b = hb->page;
    if (!mc_hang_local_call(mc_hang_fn_name(b, hb->maplen, __atomic_load_n(&s->fn, __ATOMIC_RELAXED))))
        return 0;
    return thread_cpu(b, s);
}

/* The processor time of slot t's thread while it may be moving data
 * another process's call no longer has to release, until the credit for
 * it is used up (hang_rule.h), else 0: inside an RMA synchronization call
 * while its process has one-sided operations pending, in a wait that
 * receives messages already matched (the wait on the board names them),
 * or in a blocking collective every member is in (the board says which). */
static unsigned long long transfer_cpu(mc_hang_board *hb, int t, const mc_board_thread *s)
{
    const mc_board_page *b = hb->page;
    int fn = __atomic_load_n(&s->fn, __ATOMIC_RELAXED);
    double credit = mc_hang_rma_credit_s(mc_hang_fn_name(b, hb->maplen, fn),
                                         __atomic_load_n(&b->rma_pending, __ATOMIC_RELAXED));
    if (credit <= 0 && __atomic_load_n(&b->wait.waiting, __ATOMIC_ACQUIRE) && b->wait.fn == fn)
        credit = mc_hang_data_credit_s(__atomic_load_n(&b->wait.moving, __ATOMIC_RELAXED));
    if (credit <= 0 && __atomic_load_n(&b->coll_fn, __ATOMIC_ACQUIRE) == fn && fn >= 0)
        credit = mc_hang_data_credit_s(__atomic_load_n(&b->coll_moving, __ATOMIC_RELAXED));
    if (credit <= 0)
        return 0;
    unsigned long long cpu = thread_cpu(b, s);
    uint64_t e = __atomic_load_n(&s->entries, __ATOMIC_RELAXED);
    if (hb->xfer_entries[t] != e || hb->xfer_cpu0[t] == 0) {
        hb->xfer_entries[t] = e;
        hb->xfer_cpu0[t] = cpu ? cpu : 1;
    }
    long hz = sysconf(_SC_CLK_TCK);
    if (cpu > hb->xfer_cpu0[t] && (double)(cpu - hb->xfer_cpu0[t]) > credit * (double)(hz > 0 ? hz : 100))
        return 0;   /* used up: a deadlock MPI spins in is a hang again */
    return cpu;
}

/* The sum of a process's read and write counters: bytes and calls. */
static unsigned long long io_of(int pid)
{
    char buf[1024];
    if (read_proc(pid, "io", buf, sizeof buf) != 0)
        return 0;
    unsigned long long sum = 0;
    static const char *const keys[] = {"rchar:", "wchar:", "syscr:", "syscw:"};
    for (size_t k = 0; k < 4; k++) {
        const char *q = strstr(buf, keys[k]);
        if (q)
            sum += strtoull(q + strlen(keys[k]), NULL, 10);
    }
    return sum;
}

static int is_fn(const char *name, const char *const *list)
{
    for (; name && *list; list++)
        if (strcmp(name, *list) == 0)
            return 1;
    return 0;
}

/* One look at board i: what the rule needs. */
static void look(size_t i, mc_hang_rank *r)
{
    static const char *const init_fns[] = {"MPI_Init", "MPI_Init_thread", NULL};
    static const char *const outside_fns[] = {"MPI_Comm_accept", "MPI_Comm_connect", "MPI_Comm_join", NULL};
    static const char *const spawn_fns[] = {"MPI_Comm_spawn", "MPI_Comm_spawn_multiple", NULL};
    static const char *const finalize_fns[] = {"MPI_Finalize", NULL};
    const mc_board_page *b = w.boards[i].page;
    memset(r, 0, sizeof *r);
    r->rank = b->world_rank;
    r->world_size = b->world_size;
    r->job = b->job;
    r->board_state = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
    if (b->relayed) {
        /* A copy of a board on another node (launcher/collect.c): the
         * process is there while its relay is. */
        r->alive = r->board_state != MC_BOARD_EXITED;
        w.seen_alive[i] = 1;
    } else
        r->alive = mc_hang_pid_alive(b->pid);
    /* A process this launcher never saw, in another PID namespace (a
     * container) or on another node, is not known to have ended, unless
     * its board says so: free. One that sees pids as the launcher does
     * has ended when its pid is gone or a zombie, even if it never was
     * seen alive (killed with SIGKILL between two looks, or before the
     * first). */
    if (r->alive || (w.pid_view[0] && strncmp(b->pid_view, w.pid_view, sizeof b->pid_view) == 0))
        w.seen_alive[i] = 1;
    else if (!w.seen_alive[i] && r->board_state != MC_BOARD_FINALIZED && r->board_state != MC_BOARD_EXITED) {
        r->alive = 1;
        r->board_state = MC_BOARD_RUNNING;
        return;
    }
    r->overflow = b->overflow;
    r->app_threads = b->app_threads;
    r->joining = b->joining;
    r->one_caller = b->one_caller;
    r->spawning = b->spawning;
    for (int t = 0; t < MC_BOARD_THREADS; t++) {
        const mc_board_thread *s = &b->threads[t];
        int fn = __atomic_load_n(&s->fn, __ATOMIC_RELAXED);
        if (!__atomic_load_n(&s->used, __ATOMIC_ACQUIRE) || fn < 0)
            continue;
        const char *name = mc_hang_fn_name(b, w.boards[i].maplen, fn);
        r->in_mpi++;
        r->in_init += is_fn(name, init_fns);
        r->in_outside_wait += is_fn(name, outside_fns);
        r->in_spawn += is_fn(name, spawn_fns);
        r->in_finalize += is_fn(name, finalize_fns);
    }
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

/* Everything whose change means the job moves: with io, the ranks' read
 * and write counters too, and the processor time of each thread inside a
 * local procedure (a long MPI_Get or MPI_Pack computes; the dump signal of
 * a report may move these a little, and only the rest re-arms a report). */
static uint64_t signature(const mc_hang_rank *r, int io)
{
    uint64_t h = w.nboards;
    for (size_t i = 0; i < w.nboards; i++) {
        const mc_board_page *b = w.boards[i].page;
        h = mix(h, (uint64_t)r[i].board_state << 1 | (uint64_t)r[i].alive);
        h = mix(h, __atomic_load_n(&b->progress, __ATOMIC_RELAXED));
        if (io)
            h = mix(h, r[i].alive ? (b->relayed ? __atomic_load_n(&b->io, __ATOMIC_RELAXED) : io_of(b->pid)) : 0);
        for (int t = 0; t < MC_BOARD_THREADS; t++) {
            const mc_board_thread *s = &b->threads[t];
            h = mix(h, (uint64_t)(uint32_t)__atomic_load_n(&s->fn, __ATOMIC_RELAXED));
            h = mix(h, __atomic_load_n(&s->entries, __ATOMIC_RELAXED));
            if (io && r[i].alive && __atomic_load_n(&s->used, __ATOMIC_ACQUIRE)) {
                h = mix(h, local_call_cpu(&w.boards[i], s));
                h = mix(h, transfer_cpu(&w.boards[i], t, s));
            }
        }
    }
    return h;
}

/* After MPI_Finalize: whether every rank of every job returned from it
 * (or ended) while some processes stay; which stay in lingering, and a
 * signature of whatever they still do (processor time, I/O). */
static int after_finalize(const mc_hang_rank *r, char *lingering, uint64_t *sig)
{
    int some = 0;
    *sig = 0;
    if (!mc_hang_all_known(r, w.nboards))
        return 0;
    for (size_t i = 0; i < w.nboards; i++) {
        lingering[i] = 0;
        if (!r[i].alive)
            continue;
        if (r[i].board_state != MC_BOARD_FINALIZED)
            return 0;
        lingering[i] = 1;
        some = 1;
        const mc_board_page *b = w.boards[i].page;
        if (b->relayed)
            *sig = mix(mix(*sig, __atomic_load_n(&b->cpu, __ATOMIC_RELAXED)), __atomic_load_n(&b->io, __ATOMIC_RELAXED));
        else
            *sig = mix(mix(*sig, cpu_of(b->pid)), io_of(b->pid));
    }
    return some;
}

static unsigned deadlocks_reported(void)
{
    unsigned n = 0;
    for (size_t i = 0; i < w.nboards; i++)
        n += __atomic_load_n(&w.boards[i].page->deadlocks, __ATOMIC_RELAXED);
    return n;
}

/* Sleeps `seconds`, or less when the watch is stopped. */
static void nap(double seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)seconds;
    until.tv_nsec += (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (until.tv_nsec >= 1000000000L) {     /* tv_nsec must stay below 1e9 */
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&w.nap_lock);
    while (!w.stop && pthread_cond_timedwait(&w.nap_cond, &w.nap_lock, &until) == 0)
        ;
    pthread_mutex_unlock(&w.nap_lock);
}

static void *watch(void *unused)
{
    (void)unused;
    mc_hang_rank *r = mc_calloc(MAX_BOARDS, sizeof *r);
    if (!r)
        return NULL;
    uint64_t last = 0, said = 0, last_fin = 0;
    double fin_since = 0;
    int fin_said = 0;
    char *lingering = mc_calloc(MAX_BOARDS, 1);
    if (!lingering) {
        free(r);
        return NULL;
    }
    double since = now_s(), all_gone_since = 0;
    unsigned deadlocks_at_since = 0;
    int reported = 0;
    /* Four looks a second for short timeouts, one for the default 60 s:
     * each look opens two /proc files per rank. */
    double every = w.timeout_s / 20 < 0.25 ? 0.25 : w.timeout_s / 20 > 1.0 ? 1.0 : w.timeout_s / 20;
    while (!w.stop) {
        nap(every);
        if (w.stop)
            break;
        scan();
        for (size_t i = 0; i < w.nboards; i++)
            look(i, &r[i]);
        int missing[64];
        size_t nmissing = 0;
        int frozen = mc_hang_frozen(r, w.nboards, missing, 64, &nmissing);
        uint64_t sig = signature(r, 1), core = signature(r, 0);
        double t = now_s();
        if (!frozen || sig != last) {
            last = sig;
            since = t;
            deadlocks_at_since = deadlocks_reported();
            /* One report per hang: again only after a call or a state moved. */
            if (!frozen || core != said)
                reported = 0;
        }
        else if (!reported
                 && t - since >= w.timeout_s * (mc_hang_finishing(r, w.nboards) ? MC_HANG_FINISHING_FACTOR
                                                : mc_hang_starting(r, w.nboards) ? MC_HANG_STARTING_FACTOR : 1)) {
            reported = 1;
            said = core;
            /* A deadlock the ranks reported while frozen says it already. */
            if (deadlocks_reported() == deadlocks_at_since) {
                mc_hang_report(w.dir, w.boards, w.nboards, r, missing, nmissing, t - since, w.color);
                if (w.abort_job && w.stop_job) {
                    fprintf(stderr, "mpicheck: ending the hung job\n");
                    w.stop_job();
                }
            }
        }
        /* Every rank returned from MPI_Finalize; some process stays, idle. */
        uint64_t fin_sig;
        if (!after_finalize(r, lingering, &fin_sig) || fin_sig != last_fin || fin_since == 0) {
            last_fin = fin_sig;
            fin_since = t;
        }
        else if (!fin_said && t - fin_since >= w.timeout_s) {
            fin_said = 1;
            mc_hang_report_lingering(w.dir, w.boards, w.nboards, lingering, t - fin_since, w.color);
            if (w.abort_job && w.stop_job) {
                fprintf(stderr, "mpicheck: ending the job\n");
                w.stop_job();
            }
        }
        /* Every rank's process is gone, but the launcher does not end. */
        int gone = mc_hang_all_known(r, w.nboards);
        for (size_t i = 0; i < w.nboards && gone; i++)
            gone = !r[i].alive;
        if (!gone)
            all_gone_since = 0;
        else if (all_gone_since == 0)
            all_gone_since = t;
        else if (t - all_gone_since >= w.timeout_s && w.stop_job) {
            fprintf(stderr, "mpicheck: every rank's process ended %.0f s ago, but the launcher has not "
                    "exited: ending it\n", t - all_gone_since);
            w.stop_job();
            all_gone_since = t + 1e9;   /* once */
        }
    }
    free(r);
    free(lingering);
    return NULL;
}

int mc_hang_watch_start(const char *dir, double timeout_s, int abort_job, int color, void (*stop_job)(void))
{
    memset(&w, 0, sizeof w);
    if (timeout_s <= 0 || !dir)
        return 0;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w.nap_cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&w.nap_lock, NULL);
    w.dir = mc_strdup(dir);
    if (!w.dir)
        return -1;
    w.timeout_s = timeout_s;
    w.abort_job = abort_job;
    w.color = color;
    w.stop_job = stop_job;
    mc_pid_view(w.pid_view, sizeof w.pid_view);
    /* The forwarded signals and the launcher's alarm belong to the main
     * thread (run.c): the watch takes none. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&w.thread, NULL, watch, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        fprintf(stderr, "mpicheck: warning: cannot start the hang watch (%s): a hung job is not ended\n",
                strerror(rc));
        free(w.dir);
        w.dir = NULL;
        return -1;
    }
    w.running = 1;
    return 0;
}

void mc_hang_watch_stop(void)
{
    if (w.running) {
        pthread_mutex_lock(&w.nap_lock);
        w.stop = 1;
        pthread_cond_signal(&w.nap_cond);
        pthread_mutex_unlock(&w.nap_lock);
        pthread_join(w.thread, NULL);
        w.running = 0;
    }
    for (size_t i = 0; i < w.nboards; i++)
        mc_hang_board_unmap(&w.boards[i]);
    w.nboards = 0;
    free(w.dir);
    w.dir = NULL;
}
