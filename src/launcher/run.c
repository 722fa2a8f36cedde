/*
 * run.c - starting and supervising the launcher (see run.h).
 *
 * A rank that dies without MPI_Finalize, or an mpirun that is killed, can
 * leave ranks and daemons running forever; a CI job then hangs. mpicheck
 * therefore becomes a child subreaper (orphans of the job re-parent to it)
 * and, when the launcher exits, ends exactly what it started: the
 * launcher's process group and its own descendants, found through
 * /proc/<pid>/stat. Nothing is ever killed by name.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX/GNU calls (strndup, realpath...) even under -std=c11 */
#endif
#include "run.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFORWARDED (sizeof forwarded / sizeof forwarded[0])

/* Seconds the launcher gets to stop after a forwarded signal before the
 * whole job is killed: Hydra, for one, waits forever for ranks' output
 * pipes, which a stray grandchild can hold open. */
#define MC_SIGNAL_GRACE_S 5

static volatile sig_atomic_t job_pgid;
static volatile sig_atomic_t nforwarded;
static volatile sig_atomic_t escalate;
static volatile sig_atomic_t first_signal;

static void forward_signal(int sig)
{
    int saved = errno;
    if (job_pgid > 0) {
        kill(-(pid_t)job_pgid, sig);
        /* A second signal means "now"; the first starts the grace period. */
        if (++nforwarded == 1) {
            first_signal = sig;
            alarm(MC_SIGNAL_GRACE_S);
        }
        else
            escalate = 1;
    }
    errno = saved;
}

static void grace_expired(int sig)
{
    (void)sig;
    escalate = 1;
}

void mc_run_stop_job(void)
{
    pid_t pgid = (pid_t)job_pgid;
    if (pgid <= 0)
        return;
    kill(-pgid, SIGTERM);
    kill(-pgid, SIGCONT);
    /* The same grace as for a forwarded signal; then the whole job is
     * killed (wait_launcher). The alarm goes to the main thread: the hang
     * watch blocks every signal. */
    if (++nforwarded == 1)
        alarm(MC_SIGNAL_GRACE_S);
}

int mc_run_forwarded_signal(void)
{
    return first_signal;
}

int mc_run_stopped(void)
{
    return nforwarded > 0;
}

int mc_status_exit_code(int wstatus)
{
    if (WIFEXITED(wstatus))
        return WEXITSTATUS(wstatus);
    if (WIFSIGNALED(wstatus))
        return 128 + WTERMSIG(wstatus);
    return 1;
}

/* Sets the terminal's foreground group without being stopped by SIGTTOU
 * (which a background group gets for tcsetpgrp). */
static void set_foreground(pid_t pgrp)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTTOU);
    sigprocmask(SIG_BLOCK, &block, &old);
    tcsetpgrp(STDIN_FILENO, pgrp);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

static void child_exec(const mc_command *cmd, int take_tty, pid_t parent,
                       const struct sigaction *old_actions, const sigset_t *old_mask)
{
    setpgid(0, 0);
    if (take_tty)
        set_foreground(getpid());
    /* If mpicheck dies (even by SIGKILL) the launcher is told to stop. */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(128 + SIGTERM); /* mpicheck died before prctl took effect */
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &old_actions[i], NULL);
    sigprocmask(SIG_SETMASK, old_mask, NULL);
    for (size_t i = 0; i < cmd->nunset; i++)
        unsetenv(cmd->unset[i]);
    for (size_t i = 0; i < cmd->nset; i++)
        setenv(cmd->set_names[i], cmd->set_values[i], 1);
    execvp(cmd->argv[0], cmd->argv);
    fprintf(stderr, "mpicheck: cannot run '%s': %s\n", cmd->argv[0], strerror(errno));
    _exit(127);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads ppid, pgrp and state of pid from /proc. Returns 0 or -1. */
static int read_stat(pid_t pid, pid_t *ppid, pid_t *pgrp, char *state)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* comm may contain spaces and parentheses: parse after the last ')'. */
    char *p = strrchr(buf, ')');
    int pp, pg;
    if (p == NULL || sscanf(p + 1, " %c %d %d", state, &pp, &pg) != 3)
        return -1;
    *ppid = pp;
    *pgrp = pg;
    return 0;
}

typedef struct {
    pid_t *pids;
    size_t n, cap;
} pid_set;

static int pid_set_has(const pid_set *s, pid_t p)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->pids[i] == p)
            return 1;
    return 0;
}

static void pid_set_add(pid_set *s, pid_t p)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 32;
        pid_t *b = realloc(s->pids, nc * sizeof *b);
        if (b == NULL)
            return; /* only means p may be signalled again */
        s->pids = b;
        s->cap = nc;
    }
    s->pids[s->n++] = p;
}

/* One sweep over /proc: reaps our exited children (except the launcher,
 * whose zombie keeps pgid from being reused while we still signal it),
 * sends sig to each live process of ours not yet in signalled, and returns
 * how many live ones remain; *reaped counts the children reaped. */
static int sweep(pid_t launcher, pid_t pgid, int sig, pid_set *signalled, int *reaped)
{
    pid_t me = getpid();
    int alive = 0;
    *reaped = 0;
    DIR *d = opendir("/proc");
    if (d == NULL)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long v = strtol(e->d_name, &end, 10);
        if (*end != '\0' || v <= 0 || (pid_t)v == me)
            continue;
        pid_t pid = (pid_t)v, ppid, pgrp;
        char state;
        if (read_stat(pid, &ppid, &pgrp, &state) != 0)
            continue;
        if (ppid != me && pgrp != pgid)
            continue;
        if (state == 'Z') {
            if (ppid == me && pid != launcher && waitpid(pid, NULL, WNOHANG) > 0)
                (*reaped)++;
            continue;
        }
        alive++;
        if (!pid_set_has(signalled, pid)) {
            kill(pid, sig);
            if (sig != SIGKILL)
                kill(pid, SIGCONT); /* a stopped process would not see sig */
            pid_set_add(signalled, pid);
        }
    }
    closedir(d);
    return alive;
}

/* Ends what the job left behind: SIGTERM, up to 2 s of grace, SIGKILL. */
static void end_leftovers(pid_t launcher)
{
    pid_set termed = {0}, killed = {0};
    double start = now_s();
    int sig = SIGTERM;
    kill(-launcher, SIGTERM);
    kill(-launcher, SIGCONT);
    int clean = 0;
    for (;;) {
        int reaped;
        int alive = sweep(launcher, launcher, sig, sig == SIGTERM ? &termed : &killed,
                          &reaped);
        /* A process that died during the sweep may have handed its children
         * to us after /proc showed them: only two sweeps in a row that find
         * nothing alive and reap nothing are conclusive. */
        if (alive == 0 && reaped == 0 && ++clean == 2)
            break;
        if (alive != 0 || reaped != 0)
            clean = 0;
        double t = now_s() - start;
        if (sig == SIGTERM && t > 2.0) {
            sig = SIGKILL;
            kill(-launcher, SIGKILL);
            continue;
        }
        if (t > 7.0) {
            fprintf(stderr, "mpicheck: warning: %d process(es) of the job would not "
                    "die; giving up\n", alive);
            break;
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    free(termed.pids);
    free(killed.pids);
}

/* Waits until the launcher exits, reaping orphans meanwhile, without
 * reaping the launcher itself. Passes terminal stops (Ctrl-Z) up to the
 * shell when the job owns the terminal. */
static void wait_launcher(pid_t pid, int own_tty)
{
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        int flags = WEXITED | WNOWAIT | (own_tty ? WSTOPPED : 0);
        if (waitid(P_ALL, 0, &si, flags) != 0) {
            if (errno != EINTR)
                return; /* ECHILD: cannot happen while the launcher is ours */
            if (escalate == 1) {
                escalate = 2;
                fprintf(stderr, "mpicheck: the launcher did not stop after the signal; "
                        "killing the job\n");
                pid_set killed = {0};
                int reaped;
                kill(-pid, SIGKILL);
                sweep(pid, pid, SIGKILL, &killed, &reaped);
                free(killed.pids);
            }
            continue;
        }
        if (si.si_code == CLD_STOPPED || si.si_code == CLD_TRAPPED) {
            siginfo_t drop;
            waitid(P_PID, (id_t)si.si_pid, &drop, WSTOPPED | WNOHANG); /* consume */
            if (si.si_pid == pid) {
                set_foreground(getpgrp());
                kill(getpid(), SIGSTOP);  /* resumed by the shell's fg/bg */
                /* After "bg" the shell keeps the terminal: leave it there. */
                if (tcgetpgrp(STDIN_FILENO) == getpgrp())
                    set_foreground(pid);
                kill(-pid, SIGCONT);
            }
            continue;
        }
        if (si.si_pid == pid)
            return;
        waitpid(si.si_pid, NULL, 0); /* an orphan re-parented to us */
    }
}

int mc_run_job(const mc_command *cmd, int *wstatus)
{
    struct sigaction old_actions[NFORWARDED], sa;
    sigset_t block, old_mask;

    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        fprintf(stderr, "mpicheck: warning: cannot become a child subreaper (%s): "
                "processes orphaned by the launcher may survive\n", strerror(errno));

    /* Hand the terminal to the job when mpicheck owns it, so that mpirun
     * can read stdin and Ctrl-C/Ctrl-Z reach the job directly. */
    int own_tty = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();

    sigemptyset(&block);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaddset(&block, forwarded[i]);
    sigprocmask(SIG_BLOCK, &block, &old_mask);
    nforwarded = 0;
    escalate = 0;
    first_signal = 0;
    /* No SA_RESTART: the wait must return EINTR to notice escalation. */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &sa, &old_actions[i]);
    struct sigaction alrm, old_alrm;
    memset(&alrm, 0, sizeof alrm);
    alrm.sa_handler = grace_expired;
    sigemptyset(&alrm.sa_mask);
    sigaction(SIGALRM, &alrm, &old_alrm);

    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "mpicheck: cannot fork: %s\n", strerror(errno));
        for (size_t i = 0; i < NFORWARDED; i++)
            sigaction(forwarded[i], &old_actions[i], NULL);
        sigaction(SIGALRM, &old_alrm, NULL);
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        return -1;
    }
    if (pid == 0)
        child_exec(cmd, own_tty, parent, old_actions, &old_mask);

    /* Both sides set the group, so neither order of execution races. */
    setpgid(pid, pid);
    if (own_tty)
        set_foreground(pid);
    job_pgid = pid;
    sigprocmask(SIG_SETMASK, &old_mask, NULL);

    wait_launcher(pid, own_tty);
    if (own_tty)
        set_foreground(getpgrp());
    end_leftovers(pid);

    sigprocmask(SIG_BLOCK, &block, NULL);
    job_pgid = 0;
    alarm(0);
    while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
        ;
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ; /* zombies of orphans that exited during the last sweep */
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &old_actions[i], NULL);
    sigaction(SIGALRM, &old_alrm, NULL);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    return 0;
}
