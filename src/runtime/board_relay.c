/*
 * board_relay.c - a rank on a node that does not see the launcher's part
 * directory (report/relay.c) sends the wait on its board to the launcher,
 * so that a rank that dies on any node can learn who waited for it
 * (mc_board_waiters asks the launcher).
 *
 * RATIONALE: the wait path writes its board with plain stores and must
 * stay free of messages and system calls; a thread of the checker's looks
 * at the page ten times a second and sends it when it changed. A waiter
 * that a crash leaves waiting has waited long before: what the launcher
 * has is at most 100 ms old. Only relaying ranks run it.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "relay.h"
#include "rank_board.h"
#include "wait_board.h"
#include "state.h"

#define LOOK_NS 100000000L

static void *relay_main(void *arg)
{
    (void)arg;
    char name[16];
    snprintf(name, sizeof name, "%d", mc_st.world_rank);
    mc_board_wait last, now;
    int fd = -1, sent = 0, backoff = 0;
    memset(&last, 0, sizeof last);
    for (;;) {
        struct timespec nap = {0, LOOK_NS};
        nanosleep(&nap, NULL);
        mc_board_page *b = mc_board_page_mine();
        if (!b || backoff-- > 0)
            continue;
        /* The writer sets waiting last when a wait starts and clears it
         * first when it ends: a copy between two equal reads of it that
         * says "waiting" is whole. */
        int w1 = __atomic_load_n(&b->wait.waiting, __ATOMIC_ACQUIRE);
        memcpy(&now, (const void *)&b->wait, sizeof now);
        int w2 = __atomic_load_n(&b->wait.waiting, __ATOMIC_ACQUIRE);
        if (w1 != w2)
            continue;
        if (!now.waiting)
            memset(&now, 0, sizeof now);
        if (sent && memcmp(&now, &last, sizeof now) == 0)
            continue;
        if (fd < 0 && (fd = mc_relay_connect("wait", name)) < 0) {
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
    if (started || !mc_relay_remote() || mc_st.spawned || !mc_board_active())
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
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_t t;
    pthread_create(&t, &attr, relay_main, NULL);
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
