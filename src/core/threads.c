/*
 * threads.c - which threads are the program's. pthread_create is wrapped:
 * a thread started outside every MPI call, by a thread of the program, is
 * the program's and is counted while it lives (mc_st.app_threads); one
 * started inside an MPI call (the library's progress threads, PMIx's,
 * libevent's), or by such a thread, is the library's and is not.
 *
 * Why: under MPI_THREAD_MULTIPLE the deadlock detector may only call a
 * rank blocked when no other thread of the program could still make the
 * call that releases it. With no thread besides the main one, the rank is
 * as single-threaded as under MPI_THREAD_SINGLE, whatever level it asked
 * for (mpi4py asks for MPI_THREAD_MULTIPLE by default). Threads a library
 * starts outside MPI (an OpenMP or BLAS pool) count as the program's: the
 * detector stays off there, never wrong.
 *
 * pthread_join is wrapped too: a thread of the program that waits for
 * another to end can make no MPI call until it does, so it counts as
 * blocked beside the threads that wait in MPI (mc_st.app_joining; the
 * detector's rule is in runtime/deadlock_answer.c).
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include "dispatch.h"
#include "rank_board.h"
#include "skipped.h"
#include "state.h"

#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer must see every pthread_create itself (it crashes on
 * threads started past its interceptor): in that build (tests/tsan.sh) the
 * program's threads are not told apart, and the detector stays off under
 * MPI_THREAD_MULTIPLE as if some were alive. */
__attribute__((constructor)) static void threads_unknown(void)
{
    mc_st.app_threads = 1 << 20;
}
#else
static __thread int library_thread;     /* started inside an MPI call, or by such a thread */

typedef struct {
    void *(*fn)(void *);
    void *arg;
    int library;
} start_block;

static void thread_ended(void *unused)
{
    (void)unused;
    mc_board_thread_ended();
    mc_board_app_threads(__atomic_sub_fetch(&mc_st.app_threads, 1, __ATOMIC_RELAXED));
}

static void *start(void *p)
{
    start_block b = *(start_block *)p;
    free(p);
    library_thread = b.library;
    if (b.library)
        return b.fn(b.arg);
    void *ret;
    pthread_cleanup_push(thread_ended, NULL);
    ret = b.fn(b.arg);
    pthread_cleanup_pop(1);
    return ret;
}

MC_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    if (!real)
        return EAGAIN;
    start_block *b = mc_malloc(sizeof *b);
    if (!b) {   /* the thread is not followed: counted as the program's for good */
        mc_board_app_threads(__atomic_add_fetch(&mc_st.app_threads, 1, __ATOMIC_RELAXED));
        return real(thread, attr, fn, arg);
    }
    b->fn = fn;
    b->arg = arg;
    b->library = library_thread || mc_depth > 0;
    if (!b->library)
        mc_board_app_threads(__atomic_add_fetch(&mc_st.app_threads, 1, __ATOMIC_RELAXED));
    int rc = real(thread, attr, start, b);
    if (rc != 0) {
        if (!b->library)
            mc_board_app_threads(__atomic_sub_fetch(&mc_st.app_threads, 1, __ATOMIC_RELAXED));
        free(b);
    }
    return rc;
}

MC_EXPORT int pthread_join(pthread_t thread, void **retval)
{
    static int (*real)(pthread_t, void **);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_join");
    if (!real)
        return ESRCH;
    /* Only the program's threads, outside MPI calls, count. */
    int counted = !library_thread && mc_depth == 0;
    if (counted)
        mc_board_joining(__atomic_add_fetch(&mc_st.app_joining, 1, __ATOMIC_RELAXED));
    int rc = real(thread, retval);
    if (counted)
        mc_board_joining(__atomic_sub_fetch(&mc_st.app_joining, 1, __ATOMIC_RELAXED));
    return rc;
}
#endif
