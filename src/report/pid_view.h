/*
 * pid_view.h - which process ids a process can see: its node (the running
 * kernel's boot id) and its PID namespace. Two processes with the same view
 * mean the same process by the same number, so one can tell for sure that
 * the other's rank has ended when its /proc entry is gone.
 * RATIONALE: the launcher's hang watch must know that a rank killed with
 * SIGKILL (no handler runs, its board still says "running") has ended,
 * even when it was reaped before the watch's first look. Without a view to
 * compare, a process never seen alive might just live in another
 * namespace or on another node (a shared part directory), and the watch
 * must then not call it ended.
 */
#ifndef MPICHECK_PID_VIEW_H
#define MPICHECK_PID_VIEW_H

#include <stddef.h>

#define MC_PID_VIEW_LEN 64

/* Writes "<boot id>/<pid namespace inode>" into out, or "" when either
 * cannot be read (then no view equals it). */
void mc_pid_view(char *out, size_t cap);

#endif
