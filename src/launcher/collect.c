/*
 * collect.c - the launcher's collector: ranks on nodes that do not see the
 * part directory connect here over TCP (report/relay_wire.h has the
 * protocol) and their part lines land in the part directory as if they
 * had written them, and each one's board is copied there (as
 * "wait.<rank>", marked relayed): the hang watch reads it like a local
 * board, and a dying rank that asks who waited for it gets the answer from
 * the boards there.
 *
 * RATIONALE: a job across nodes cannot count on a shared directory, and
 * its findings must reach the report even when a rank crashes or the job
 * is torn down; the launcher outlives the job and is the one process every
 * node can reach (mpirun's own daemons connect back to it). Writing into
 * the part directory keeps the terminal report, the merge and the hang
 * watch as they are: a relayed rank's file is read like a local one's.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "board_layout.h"
#include "collect.h"
#include "relay_wire.h"
#include "writers.h"

enum { HELLO, APPEND, NAMES_LEN, NAMES, BOARD };

typedef struct {
    int fd, state, out;         /* out: the part directory's file (APPEND) */
    int rank;                   /* BOARD: whose */
    size_t fill, want;
    char *names;                /* NAMES: the function names being received */
    mc_board_page *copy;        /* BOARD: the copy in the part directory */
    size_t maplen;
    char buf[MC_RELAY_LINE_MAX > sizeof(mc_board_status) ? MC_RELAY_LINE_MAX : sizeof(mc_board_status)];
} conn;

static struct {
    const char *dir;
    char token[40];
    int listen_fd, wake[2];
    pthread_t thread;
    int running, finishing;
    long last_data_ms;
    conn *conns;
    size_t nconns, cap;
} C = {.listen_fd = -1, .wake = {-1, -1}};

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static void send_all(int fd, const char *s, size_t len)
{
    while (len > 0) {
        ssize_t w = send(fd, s, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        len -= (size_t)w;
    }
}

static void drop(size_t i)
{
    conn *c = &C.conns[i];
    close(c->fd);
    if (c->out >= 0)
        close(c->out);
    free(c->names);
    if (c->copy) {
        /* The relay broke off: its process ended (its last look may not
         * have sent the end). */
        __atomic_store_n(&c->copy->state, MC_BOARD_EXITED, __ATOMIC_RELEASE);
        munmap(c->copy, c->maplen);
    }
    C.conns[i] = C.conns[--C.nconns];
}

/* The copy of rank c->rank's board, with the names c received: a file of
 * the part directory like a local board. 0, or -1. */
static int make_copy(conn *c, size_t nlen)
{
    char path[4096], tmp[4096];
    snprintf(path, sizeof path, "%s/wait.%d", C.dir, c->rank);
    snprintf(tmp, sizeof tmp, "%s/.wait.%d.new", C.dir, c->rank);
    c->maplen = sizeof(mc_board_page) + nlen;
    int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    void *p = MAP_FAILED;
    if (ftruncate(fd, (off_t)c->maplen) == 0)
        p = mmap(NULL, c->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        unlink(tmp);
        return -1;
    }
    mc_board_page *b = p;
    memcpy((char *)p + sizeof *b, c->names, nlen);
    b->version = MC_BOARD_VERSION;
    b->names_off = sizeof *b;
    b->names_len = (uint32_t)nlen;
    for (uint32_t i = 0; i < nlen; i++)
        b->nnames += c->names[i] == '\0';
    b->relayed = 1;
    b->state = MC_BOARD_INIT;
    snprintf(b->pid_view, sizeof b->pid_view, "relayed");
    for (int t = 0; t < MC_BOARD_THREADS; t++)
        b->threads[t].fn = MC_BOARD_OUTSIDE;
    c->copy = b;
    /* In place under its name only with the first status in it (below). */
    return rename(tmp, path) == 0 ? 0 : -1;
}

/* Who waits for rank dead: the boards of the part directory, those of
 * this node's ranks and the copies of the others'. */
static void answer_ask(int fd, int dead)
{
    char line[MC_RELAY_LINE_MAX];
    DIR *d = opendir(C.dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char *end;
        if (strncmp(e->d_name, "wait.", 5) != 0 || e->d_name[5] < '0' || e->d_name[5] > '9')
            continue;
        long r = strtol(e->d_name + 5, &end, 10);
        if (*end || r == dead || r > 1 << 30)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", C.dir, e->d_name);
        mc_board_wait w;
        if (mc_board_read_wait(path, &w) == 0 && mc_board_waits_for(&w, dead)) {
            int n = snprintf(line, sizeof line, "%ld %d %llu %llu\n", r, w.fn, (unsigned long long)w.mod,
                             (unsigned long long)w.off);
            send_all(fd, line, (size_t)n);
        }
    }
    if (d)
        closedir(d);
    send_all(fd, "end\n", 4);
}

/* The hello line of connection c: 0 when it goes on, -1 to drop it. */
static int hello(conn *c, const char *line)
{
    char token[64], kind[16], name[160];
    if (strncmp(line, MC_RELAY_HELLO " ", sizeof MC_RELAY_HELLO) != 0
        || sscanf(line + sizeof MC_RELAY_HELLO, "%63s %15s %159s", token, kind, name) != 3
        || strcmp(token, C.token) != 0 || !mc_relay_name_ok(name)) {
        send_all(c->fd, "no\n", 3);
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/" MC_LIVE_MARKER, C.dir);
    const char *ok = access(path, F_OK) == 0 ? "ok terminal\n" : "ok\n";
    if (strcmp(kind, "ask") == 0) {
        send_all(c->fd, ok, strlen(ok));
        answer_ask(c->fd, atoi(name));
        return -1;
    }
    if (strcmp(kind, "board") == 0) {
        char *end;
        long r = strtol(name, &end, 10);
        if (*end || r < 0 || r > 1 << 24)
            return -1;
        c->state = NAMES_LEN;
        c->rank = (int)r;
        c->want = sizeof(uint32_t);
    } else if (strcmp(kind, "append") == 0 || strcmp(kind, "write") == 0) {
        snprintf(path, sizeof path, "%s/%s", C.dir, name);
        int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (kind[0] == 'a' ? O_APPEND : O_TRUNC);
        if ((c->out = open(path, flags, 0600)) < 0)
            return -1;
        c->state = APPEND;
    } else {
        send_all(c->fd, "no\n", 3);
        return -1;
    }
    send_all(c->fd, ok, strlen(ok));
    return 0;
}

/* Bytes from connection c: 0, or -1 to drop it. */
static int take(conn *c, const char *data, size_t len)
{
    while (len > 0) {
        if (c->state == APPEND) {
            ssize_t w = write(c->out, data, len);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return -1;
            data += w;
            len -= (size_t)w;
            continue;
        }
        if (c->state == NAMES) {    /* the function names, then the copy */
            size_t n = len < c->want - c->fill ? len : c->want - c->fill;
            memcpy(c->names + c->fill, data, n);
            c->fill += n, data += n, len -= n;
            if (c->fill == c->want) {
                if (make_copy(c, c->want) != 0)
                    return -1;
                free(c->names);
                c->names = NULL;
                c->state = BOARD;
                c->fill = 0;
                c->want = sizeof(mc_board_status);
            }
            continue;
        }
        size_t want = c->state == HELLO ? sizeof c->buf - 1 : c->want;
        size_t n = len < want - c->fill ? len : want - c->fill;
        memcpy(c->buf + c->fill, data, n);
        c->fill += n, data += n, len -= n;
        if (c->state == NAMES_LEN) {
            if (c->fill == want) {
                uint32_t nlen;
                memcpy(&nlen, c->buf, sizeof nlen);
                if (nlen == 0 || nlen > 1 << 20 || !(c->names = malloc(nlen)))
                    return -1;
                c->state = NAMES;
                c->want = nlen;
                c->fill = 0;
            }
            continue;
        }
        if (c->state == BOARD) {
            if (c->fill == want) {
                mc_board_status st;
                memcpy(&st, c->buf, sizeof st);
                st.job[sizeof st.job - 1] = st.spawning[sizeof st.spawning - 1] = '\0';
                mc_board_status_put(c->copy, &st);
                /* Readers take a board once its magic is there. */
                __atomic_store_n(&c->copy->magic, MC_BOARD_MAGIC, __ATOMIC_RELEASE);
                c->fill = 0;
            }
            continue;
        }
        char *nl = memchr(c->buf, '\n', c->fill);
        if (!nl) {
            if (c->fill >= want)
                return -1;      /* no hello line */
            continue;
        }
        *nl = '\0';
        size_t rest = c->fill - (size_t)(nl + 1 - c->buf);
        char after[sizeof c->buf];
        memcpy(after, nl + 1, rest);
        c->fill = 0;
        if (hello(c, c->buf) != 0)
            return -1;
        if (rest && take(c, after, rest) != 0)
            return -1;
    }
    return 0;
}

static void accept_all(void)
{
    for (;;) {
        int fd = accept4(C.listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        if (C.nconns == C.cap) {
            size_t cap = C.cap ? 2 * C.cap : 64;
            conn *grown = realloc(C.conns, cap * sizeof *grown);
            if (!grown) {
                close(fd);
                return;
            }
            C.conns = grown;
            C.cap = cap;
        }
        conn *c = &C.conns[C.nconns++];
        memset(c, 0, offsetof(conn, buf));
        c->fd = fd;
        c->out = -1;
        c->state = HELLO;
    }
}

static void *serve(void *arg)
{
    (void)arg;
    struct pollfd *p = NULL;
    size_t pcap = 0;
    char data[65536];
    for (;;) {
        if (__atomic_load_n(&C.finishing, __ATOMIC_ACQUIRE)
            && (C.nconns == 0 || now_ms() - __atomic_load_n(&C.last_data_ms, __ATOMIC_RELAXED) > 3000))
            break;
        if (pcap < C.nconns + 2) {
            pcap = C.nconns + 64;
            struct pollfd *grown = realloc(p, pcap * sizeof *grown);
            if (!grown)
                break;
            p = grown;
        }
        p[0] = (struct pollfd){.fd = C.listen_fd, .events = POLLIN};
        p[1] = (struct pollfd){.fd = C.wake[0], .events = POLLIN};
        for (size_t i = 0; i < C.nconns; i++)
            p[i + 2] = (struct pollfd){.fd = C.conns[i].fd, .events = POLLIN};
        size_t n = C.nconns;
        if (poll(p, n + 2, __atomic_load_n(&C.finishing, __ATOMIC_ACQUIRE) ? 100 : -1) < 0 && errno != EINTR)
            break;
        if (p[1].revents) {
            char b[16];
            while (read(C.wake[0], b, sizeof b) > 0)
                ;
        }
        /* Backwards: drop() moves the last connection into the hole. */
        for (size_t i = n; i-- > 0;) {
            if (!p[i + 2].revents)
                continue;
            ssize_t r = read(C.conns[i].fd, data, sizeof data);
            if (r < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (r > 0)
                __atomic_store_n(&C.last_data_ms, now_ms(), __ATOMIC_RELAXED);
            if (r <= 0 || take(&C.conns[i], data, (size_t)r) != 0)
                drop(i);
        }
        if (p[0].revents)
            accept_all();
    }
    free(p);
    return NULL;
}

/* The launcher's IPv4 addresses, those other nodes may reach first,
 * loopback last, comma-separated into buf. */
static void addresses(char *buf, size_t cap)
{
    struct ifaddrs *ifs = NULL, *i;
    size_t len = 0;
    buf[0] = '\0';
    if (getifaddrs(&ifs) == 0)
        for (i = ifs; i; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP)
                || (i->ifa_flags & IFF_LOOPBACK))
                continue;
            char a[INET_ADDRSTRLEN];
            inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, a, sizeof a);
            if (len + strlen(a) + 2 + sizeof "127.0.0.1" < cap)
                len += (size_t)snprintf(buf + len, cap - len, "%s,", a);
        }
    freeifaddrs(ifs);
    snprintf(buf + len, cap - len, "127.0.0.1");
}

int mc_collect_start(const char *dir, char *spec, size_t cap)
{
    unsigned char rnd[16];
    int ufd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    int got = ufd >= 0 && read(ufd, rnd, sizeof rnd) == (ssize_t)sizeof rnd;
    if (ufd >= 0)
        close(ufd);
    if (!got)
        return -1;
    for (size_t i = 0; i < sizeof rnd; i++)
        snprintf(C.token + 2 * i, 3, "%02x", rnd[i]);
    /* One connection or two per rank of the other nodes. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t len = sizeof sa;
    C.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (C.listen_fd < 0 || bind(C.listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0
        || listen(C.listen_fd, SOMAXCONN) != 0 || getsockname(C.listen_fd, (struct sockaddr *)&sa, &len) != 0
        || pipe2(C.wake, O_CLOEXEC | O_NONBLOCK) != 0)
        goto fail;
    char path[4096];
    snprintf(path, sizeof path, "%s/" MC_RELAY_TOKEN_FILE, dir);
    FILE *f = fopen(path, "we");
    if (!f || fprintf(f, "%s\n", C.token) < 0 || fclose(f) != 0)
        goto fail;
    C.dir = dir;
    char addrs[1024];
    addresses(addrs, sizeof addrs);
    snprintf(spec, cap, "%s@%u@%s", C.token, (unsigned)ntohs(sa.sin_port), addrs);
    if (pthread_create(&C.thread, NULL, serve, NULL) != 0)
        goto fail;
    C.running = 1;
    return 0;
fail:
    fprintf(stderr, "mpicheck: warning: cannot listen for ranks on other nodes (%s): their findings "
            "reach the report only through a shared directory\n", strerror(errno));
    if (C.listen_fd >= 0)
        close(C.listen_fd);
    C.listen_fd = -1;
    return -1;
}

void mc_collect_finish(void)
{
    if (!C.running)
        return;
    /* The job has ended: what its processes sent is on its way; wait until
     * every connection is closed, or nothing came for 3 s. */
    __atomic_store_n(&C.last_data_ms, now_ms(), __ATOMIC_RELAXED);
    __atomic_store_n(&C.finishing, 1, __ATOMIC_RELEASE);
    if (write(C.wake[1], "x", 1) < 0) {
        /* the poll still wakes up every 100 ms */
    }
    pthread_join(C.thread, NULL);
    C.running = 0;
    while (C.nconns > 0)
        drop(C.nconns - 1);
    free(C.conns);
    close(C.listen_fd);
    close(C.wake[0]);
    close(C.wake[1]);
}
