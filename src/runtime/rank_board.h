/*
 * rank_board.h - this process's board (report/board_layout.h): where it
 * stands (in MPI_Init, running, finalized, exited), which MPI call each of
 * its program's threads is in, and a dump of those calls with their stacks
 * when the launcher asks for one. The launcher reads every board of the
 * job to tell a hung job (launcher/hang.c); wait_board.c keeps the
 * engine's current wait on the same page.
 */
#ifndef MPICHECK_RANK_BOARD_H
#define MPICHECK_RANK_BOARD_H

#include "board_layout.h"

/* Opens (creates) the board of job (its label, "" or NULL for the job
 * mpicheck started) of world_size processes (-1: not known yet): at
 * MPI_Init's entry when the launcher's environment tells the rank, else
 * after it. Only with a part directory, once. */
void mc_board_open(const char *job, int world_size);
/* The names of the MPI functions, NUL-separated in the order of the fn
 * numbers (what follows the page in a board's file), malloc'd; its length
 * in *len. NULL when out of memory. */
char *mc_board_names(size_t *len);
/* The page, or NULL when there is none. */
mc_board_page *mc_board_page_mine(void);

/* MC_BOARD_RUNNING, MC_BOARD_FINALIZED, MC_BOARD_EXITED. */
void mc_board_state(int state);
/* The status the process exits with (from its exit handler). */
void mc_board_exit_status(int status);
/* The program's threads besides the main one (core/threads.c), and the
 * end of the calling thread (its slot is given back). */
void mc_board_app_threads(int n);
/* How many of them wait in pthread_join (core/threads.c). */
void mc_board_joining(int n);
/* 1 when the provided thread level lets only one thread at a time call
 * MPI (below MPI_THREAD_MULTIPLE): a thread inside MPI then blocks the
 * rank's MPI calls whatever its other threads do. */
void mc_board_one_caller(int one);
void mc_board_thread_ended(void);
/* This process is in MPI_Comm_spawn starting the job labelled label (NULL:
 * the call is over). */
void mc_board_spawning(const char *label);
/* A one-sided operation of bytes started; an RMA synchronization call
 * returned (the bytes are moved: the hang watch's credit ends). */
void mc_board_rma_started(uint64_t bytes);
void mc_board_rma_synced(void);
/* The thread enters the real call fn of a blocking collective whose
 * handshake was clean, moving bytes (fn -1: it left it). Not under
 * MPI_THREAD_MULTIPLE, where one field could not tell threads apart. */
void mc_board_coll_moving(int fn, uint64_t bytes);
/* The engine completed an operation; this rank reported a deadlock. */
void mc_board_progress(void);
void mc_board_deadlock_reported(void);

/* Each MPI call's entry and leave (core/dispatch.c), and the program's own
 * code that MPI runs inside a call (core/callbacks.c): two stores into the
 * calling thread's slot. A thread gets its slot at its first call. */
extern __thread mc_board_thread *mc_board_slot __attribute__((tls_model("initial-exec")));
extern int mc_board_on;
mc_board_thread *mc_board_take_slot(void);

static inline mc_board_thread *mc_board_my_slot(void)
{
    mc_board_thread *s = mc_board_slot;
    if (__builtin_expect(s == NULL, 0) && mc_board_on)
        s = mc_board_take_slot();
    return s;
}

/* fn: the call entered (fortran: made from Fortran); on leave, the call
 * the thread is back in (the outer one when calls nest through a callback)
 * or MC_BOARD_OUTSIDE. */
static inline void mc_board_enter(int fn, int fortran)
{
    mc_board_thread *s = mc_board_my_slot();
    if (s) {
        __atomic_store_n(&s->fortran, fortran, __ATOMIC_RELAXED);
        __atomic_store_n(&s->fn, fn, __ATOMIC_RELAXED);
        __atomic_store_n(&s->entries, s->entries + 1, __ATOMIC_RELAXED);
    }
}

static inline void mc_board_back_in(int fn)
{
    mc_board_thread *s = mc_board_slot;
    if (s)
        __atomic_store_n(&s->fn, fn, __ATOMIC_RELAXED);
}

#endif
