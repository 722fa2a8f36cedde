/*
 * relay.c - the rank's side of the launcher's collector (relay_wire.h): a
 * process whose node does not see the launcher's part directory sends
 * there, over TCP, what a local process writes into it.
 *
 * RATIONALE: a job across nodes cannot count on a shared /tmp, and its
 * findings must reach the one report even when a rank crashes or the job
 * is torn down after a deadlock. Each line goes out when it is written,
 * as it goes into a local part file, so a relayed rank loses no more than
 * a local one; the launcher writes what it receives into its own part
 * directory, where the terminal report and the merge read it as a local
 * rank's file. Nothing is sent by a process on the launcher's node.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "relay.h"
#include "relay_wire.h"

#define CONNECT_MS 3000     /* per address: a launcher on a loaded login node answers late */
#define REPLY_MS 5000

static struct {
    int known;              /* a spec was given and parsed */
    int remote;             /* this process relays */
    int terminal;
    char token[64];
    char port[8];
    char addrs[1024];       /* "10.0.0.1,192.168.1.5" */
} R;

/* Sets up the spec's parts; 0, or -1 when it is malformed. */
static int parse_spec(const char *spec)
{
    const char *at1 = strchr(spec, '@'), *at2 = at1 ? strchr(at1 + 1, '@') : NULL;
    if (!at1 || !at2 || at1 == spec || (size_t)(at1 - spec) >= sizeof R.token
        || (size_t)(at2 - at1 - 1) >= sizeof R.port || at2 == at1 + 1 || !at2[1]
        || strlen(at2 + 1) >= sizeof R.addrs)
        return -1;
    memcpy(R.token, spec, (size_t)(at1 - spec));
    R.token[at1 - spec] = '\0';
    memcpy(R.port, at1 + 1, (size_t)(at2 - at1 - 1));
    R.port[at2 - at1 - 1] = '\0';
    strcpy(R.addrs, at2 + 1);
    return 0;
}

/* Whether dir holds the launcher's token: this node sees its directory. */
static int sees_token(const char *dir)
{
    char path[4096], buf[sizeof R.token + 2];
    snprintf(path, sizeof path, "%s/" MC_RELAY_TOKEN_FILE, dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return strcmp(buf, R.token) == 0;
}

void mc_relay_setup(const char *spec, const char *part_dir)
{
    static int done;
    if (done || !spec || !part_dir)
        return;
    done = 1;
    if (parse_spec(spec) != 0)
        return;
    R.known = 1;
    R.remote = !sees_token(part_dir);
}

int mc_relay_remote(void)
{
    return R.remote;
}

int mc_relay_known(void)
{
    return R.known;
}

int mc_relay_terminal(void)
{
    return R.terminal;
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* Waits until fd is ready for events or the deadline passes: 1, or 0. */
static int ready(int fd, short events, long deadline)
{
    for (;;) {
        long left = deadline - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {.fd = fd, .events = events};
        int n = poll(&p, 1, (int)left);
        if (n > 0)
            return 1;
        if (n < 0 && errno != EINTR)
            return 0;
    }
}

/* One line (up to '\n', which is dropped) into buf within the deadline,
 * read a byte at a time: nothing after the line may be consumed. */
static int read_line(int fd, char *buf, size_t cap, long deadline)
{
    size_t n = 0;
    while (n + 1 < cap) {
        if (!ready(fd, POLLIN, deadline))
            return -1;
        ssize_t r = read(fd, buf + n, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        if (buf[n] == '\n') {
            buf[n] = '\0';
            return 0;
        }
        n++;
    }
    return -1;
}

int mc_relay_send(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* A connected socket to one of the launcher's addresses, or -1. */
static int dial(void)
{
    char list[sizeof R.addrs], *save = NULL;
    snprintf(list, sizeof list, "%s", R.addrs);
    for (char *a = strtok_r(list, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
        struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV};
        struct addrinfo *ai = NULL;
        if (getaddrinfo(a, R.port, &hints, &ai) != 0 || !ai)
            continue;
        int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd >= 0) {
            int rc = connect(fd, ai->ai_addr, ai->ai_addrlen);
            int err = 0;
            socklen_t len = sizeof err;
            if (rc == 0 || (errno == EINPROGRESS && ready(fd, POLLOUT, now_ms() + CONNECT_MS)
                            && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)) {
                freeaddrinfo(ai);
                fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
                int one = 1;    /* a part line must leave at once: the rank may die next */
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                return fd;
            }
            close(fd);
        }
        freeaddrinfo(ai);
    }
    return -1;
}

int mc_relay_connect(const char *kind, const char *name)
{
    if (!R.known || !mc_relay_name_ok(name))
        return -1;
    int fd = dial();
    if (fd < 0)
        return -1;
    char line[MC_RELAY_LINE_MAX];
    int n = snprintf(line, sizeof line, MC_RELAY_HELLO " %s %s %s\n", R.token, kind, name);
    if (n <= 0 || (size_t)n >= sizeof line || mc_relay_send(fd, line, (size_t)n) != 0
        || read_line(fd, line, sizeof line, now_ms() + REPLY_MS) != 0 || strncmp(line, "ok", 2) != 0) {
        close(fd);
        return -1;
    }
    if (strcmp(line, "ok terminal") == 0)
        R.terminal = 1;
    return fd;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
    return mc_relay_send((int)(intptr_t)cookie, buf, len) == 0 ? (ssize_t)len : -1;
}

static int cookie_close(void *cookie)
{
    return close((int)(intptr_t)cookie);
}

FILE *mc_relay_stream(const char *kind, const char *name)
{
    int fd = mc_relay_connect(kind, name);
    if (fd < 0)
        return NULL;
    cookie_io_functions_t io = {.write = cookie_write, .close = cookie_close};
    FILE *f = fopencookie((void *)(intptr_t)fd, "w", io);
    if (!f)
        close(fd);
    return f;
}

int mc_relay_ask(int dead, int *ranks, int *fns, uint64_t *mods, uint64_t *offs, int max)
{
    static int unreachable;     /* a dying rank asks again only if it got through */
    char name[16], line[MC_RELAY_LINE_MAX];
    snprintf(name, sizeof name, "%d", dead);
    int fd = unreachable ? -1 : mc_relay_connect("ask", name), n = 0;
    if (fd < 0) {
        unreachable = 1;
        return 0;
    }
    long deadline = now_ms() + 1000;
    while (read_line(fd, line, sizeof line, deadline) == 0 && strcmp(line, "end") != 0) {
        int r, fn;
        unsigned long long mod, off;
        if (n < max && sscanf(line, "%d %d %llu %llu", &r, &fn, &mod, &off) == 4) {
            ranks[n] = r;
            fns[n] = fn;
            mods[n] = mod;
            offs[n] = off;
            n++;
        }
    }
    close(fd);
    return n;
}
