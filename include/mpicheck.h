/*
 * mpicheck.h - client requests: what a program can tell mpicheck, the MPI
 * correctness checker, from its own code. Each costs one test of a null
 * pointer when the checker is not loaded: the checker's entry point is a
 * weak reference, resolved only when the program runs under mpicheck (or
 * is linked with -lmpicheck, pkg-config mpicheck-openmpi / mpicheck-mpich).
 *
 *   MPICHECK_RUNNING()                 1 under the checker, 0 otherwise
 *   MPICHECK_OFF() ... MPICHECK_ON()   findings this process makes in between are
 *                                      suppressed (listed, marked, not counted)
 *   MPICHECK_LEAKS_INTENDED_BEGIN() ... _END()
 *                                      objects and requests made in between are
 *                                      not reported as leaks
 *   MPICHECK_PHASE("solver")           names the phase of the run: findings made
 *                                      from now on say it ("" ends it)
 *   MPICHECK_FLUSH()                   the findings so far are on disk now
 *
 * Regions nest. They are per process: the checker's handshakes go on in a
 * region (the other ranks depend on them), only what this process reports
 * changes. The portable form, which needs no header and works under any
 * MPI tool: MPI_Pcontrol(0) is MPICHECK_OFF(), MPI_Pcontrol(1) is
 * MPICHECK_ON(), MPI_Pcontrol(2) is MPICHECK_FLUSH().
 */
#ifndef MPICHECK_H
#define MPICHECK_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPICHECK_REQ_RUNNING 1
#define MPICHECK_REQ_OFF 2
#define MPICHECK_REQ_ON 3
#define MPICHECK_REQ_LEAKS_INTENDED_BEGIN 4
#define MPICHECK_REQ_LEAKS_INTENDED_END 5
#define MPICHECK_REQ_PHASE 6
#define MPICHECK_REQ_FLUSH 7

/* The checker's one entry point (libmpicheck.so): the request's result,
 * -1 for a request it does not know. */
extern int mpicheck_client_request(int request, const char *arg) __attribute__((weak));

static inline int mpicheck_request_(int request, const char *arg)
{
    return mpicheck_client_request ? mpicheck_client_request(request, arg) : 0;
}

#define MPICHECK_RUNNING() mpicheck_request_(MPICHECK_REQ_RUNNING, 0)
#define MPICHECK_OFF() ((void)mpicheck_request_(MPICHECK_REQ_OFF, 0))
#define MPICHECK_ON() ((void)mpicheck_request_(MPICHECK_REQ_ON, 0))
#define MPICHECK_LEAKS_INTENDED_BEGIN() ((void)mpicheck_request_(MPICHECK_REQ_LEAKS_INTENDED_BEGIN, 0))
#define MPICHECK_LEAKS_INTENDED_END() ((void)mpicheck_request_(MPICHECK_REQ_LEAKS_INTENDED_END, 0))
#define MPICHECK_PHASE(name) ((void)mpicheck_request_(MPICHECK_REQ_PHASE, (name)))
#define MPICHECK_FLUSH() ((void)mpicheck_request_(MPICHECK_REQ_FLUSH, 0))

#ifdef __cplusplus
}
#endif

#endif
