/*
 * state.c - the definitions of util/state.h and of the wrappers' re-entry
 * guard (call.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#endif
#include "call.h"
#include "state.h"

mc_state mc_st = {.world_rank = -1, .world_size = -1, .last_fn = -1, .thread_level = MPI_THREAD_SINGLE,
                  .tag_ub = 32767, .cfg_ok = 1};
/* Recursive: the report path names handles from the table (render.c) and
 * also runs from checks that already hold the lock (args.c). */
pthread_mutex_t mc_table_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

__thread int mc_depth __attribute__((tls_model("initial-exec")));
__thread mc_call *mc_cur_call __attribute__((tls_model("initial-exec")));
__thread uint64_t mc_call_seq __attribute__((tls_model("initial-exec")));
int mc_disabled;
