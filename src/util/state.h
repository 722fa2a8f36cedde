/*
 * state.h - the checker's process-wide state inside one MPI rank: where the
 * run stands, the settings, this rank's place in the world, the counters of
 * findings, and the table lock. Every layer reads it; core (src/core/) alone
 * moves the run from phase to phase (lifecycle.h).
 */
#ifndef MPICHECK_STATE_H
#define MPICHECK_STATE_H

#include <pthread.h>
#include <stdio.h>
#include <mpi.h>
#include "config.h"

typedef enum {
    MC_PHASE_PREINIT = 0,   /* before MPI_Init / MPI_Init_thread returned */
    MC_PHASE_RUNNING,       /* between MPI_Init and MPI_Finalize */
    MC_PHASE_FINALIZED      /* MPI_Finalize has been called */
} mc_phase;

typedef struct {
    mc_phase phase;
    int world_rank;         /* from the launcher's environment before MPI_Init */
    int world_size;
    int thread_level;       /* provided level; MPI_THREAD_MULTIPLE makes tables lock */
    int app_threads;        /* threads the program started (outside MPI calls) still alive,
                             * besides its main thread (core/threads.c; atomic) */
    int app_joining;
    MPI_Errhandler fatal_errhandler;    /* the checker's stand-in for MPI_ERRORS_ARE_FATAL (checks/mpi_errors.c) */        /* of those and the main one, how many wait in pthread_join (atomic) */
    int tag_ub;             /* MPI_TAG_UB of MPI_COMM_WORLD */
    mc_config cfg;
    int cfg_ok;             /* 0: the MPICHECK_* environment was bad */
    char cfg_error[512];
    int under_launcher;     /* MPICHECK_DIR was set by the mpicheck launcher */
    char *part_dir;         /* where this rank's part file goes, NULL: none (report.c keeps a copy) */
    int own_part_dir;       /* 1: created by rank 0 when preloaded by hand */
    int sessions;           /* MPI_Session_init was called: the sessions model, no MPI_Init needed */
    int sessions_open;      /* sessions open now */
    int finalizing;         /* MPI_Finalize has started */
    int windows;            /* RMA windows alive: other ranks' one-sided calls may need this rank's progress */
    int aborting;           /* MPI_Abort was called (by the program or the checker) */
    int last_fn;            /* the last MPI call this process made (-1: none) ... */
    int last_fortran;       /* ... made from Fortran ... */
    const void *last_caller;    /* ... and where from */
    int spawned;            /* started by MPI_Comm_spawn: world ranks repeat the parents' */
    char job[48];           /* its job's label in reports: "" in the job mpicheck started,
                             * "spawn 0.1" ... for spawned ones (inter/spawn.c) */
    MPI_Comm world_dup;     /* the checker's private copy of MPI_COMM_WORLD */
} mc_state;

extern mc_state mc_st;

/* Whether MPI can be checked now: the world model is up, or a session is open. */
static inline int mc_checking(void)
{
    return mc_st.phase == MC_PHASE_RUNNING || mc_st.sessions_open > 0;
}

/* The lock that guards the tracking tables (the object table of
 * tracking/objects.h). Taken only when the program asked for
 * MPI_THREAD_MULTIPLE: with fewer threads it costs nothing. Every reader
 * and writer of the table takes it; it is recursive.
 *
 * It comes after the engine lock in the lock order of the whole library
 * (runtime.h): never take the engine lock while holding this one (track.c
 * tells the runtime of a freed communicator after letting go of it).
 * tests/tsan.sh runs the threaded programs under
 * ThreadSanitizer, which reports an inversion. */
extern pthread_mutex_t mc_table_lock;
#define MC_LOCK() do { if (mc_st.thread_level == MPI_THREAD_MULTIPLE) pthread_mutex_lock(&mc_table_lock); } while (0)
#define MC_UNLOCK() do { if (mc_st.thread_level == MPI_THREAD_MULTIPLE) pthread_mutex_unlock(&mc_table_lock); } while (0)

#endif
