/*
 * stack.c - capture (libunwind) and resolution (libdwfl) of call stacks.
 *
 * Build: pkg-config libunwind libdw (-lunwind -ldw -lelf), plus -lpthread;
 * dl_iterate_phdr is in libc. Safe to compile with -fPIC -O2.
 *
 * Which frames are "ours": a text range [lo, hi). If mc_stack_set_self_range()
 * was never called, the first capture computes the executable segment(s) of
 * the object that contains this file: all of libmpicheck.so when built into
 * it, but the WHOLE executable when stack.c is linked into a program (unit
 * tests), so such programs call mc_stack_set_self_range(0, 0) to skip nothing.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <elfutils/libdwfl.h>
#ifdef MC_STACK_EXECINFO
#include <execinfo.h>
#endif
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stack.h"
#include "skipped.h"

/* unw_backtrace (cached fast path, ~40 ns for a short stack) is ~60x cheaper
 * than an unw_step loop, but it cannot skip frames on the fly, so it fills a
 * raw buffer first: our own frames plus the ones asked for, up to RAW_MAX.
 * Frames deeper than RAW_MAX are lost; a report needs the innermost ones. */
#define RAW_SLACK 32
#define RAW_MAX 256

/* The range is read without a lock on every capture; the mutex only orders
 * the one-time lazy computation against an explicit mc_stack_set_self_range. */
static uintptr_t self_lo, self_hi;
static int self_known;
static pthread_mutex_t self_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;

struct seg_search {
    uintptr_t target, lo, hi;
};

static int find_text_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    struct seg_search *s = data;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    int hit = 0;
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr, b = a + ph->p_memsz;
        if (s->target >= a && s->target < b)
            hit = 1;
        if (a < lo)
            lo = a;
        if (b > hi)
            hi = b;
    }
    if (!hit)
        return 0;
    s->lo = lo;
    s->hi = hi;
    return 1; /* stop iterating */
}

static void compute_self_range(void)
{
    /* The address of a static function: an exported one could be the PLT
     * stub of a non-PIE executable instead of our own code. */
    struct seg_search s = { (uintptr_t)&compute_self_range, 0, 0 };
    dl_iterate_phdr(find_text_cb, &s); /* not found: empty range, skip none */
    pthread_mutex_lock(&self_lock);
    if (!__atomic_load_n(&self_known, __ATOMIC_RELAXED)) {
        __atomic_store_n(&self_lo, s.lo, __ATOMIC_RELAXED);
        __atomic_store_n(&self_hi, s.hi, __ATOMIC_RELAXED);
        __atomic_store_n(&self_known, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&self_lock);
}

void mc_stack_set_self_range(uintptr_t lo, uintptr_t hi)
{
    pthread_mutex_lock(&self_lock);
    __atomic_store_n(&self_lo, lo, __ATOMIC_RELAXED);
    __atomic_store_n(&self_hi, hi, __ATOMIC_RELAXED);
    __atomic_store_n(&self_known, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&self_lock);
}

/* noinline: the skip below relies on this function having its own frame. */
__attribute__((noinline)) size_t mc_stack_capture(uintptr_t *pcs, size_t max)
{
    void *raw[RAW_MAX];
    /* Everything innermost of our caller's return address is libunwind's or
     * ours; finding it skips those even when the self range is empty. */
    uintptr_t caller = (uintptr_t)__builtin_return_address(0);
    size_t nraw, start = 0, n = 0;

    if (max == 0 || pcs == NULL)
        return 0;
    if (!__atomic_load_n(&self_known, __ATOMIC_ACQUIRE))
        pthread_once(&self_once, compute_self_range);
    uintptr_t lo = __atomic_load_n(&self_lo, __ATOMIC_RELAXED);
    uintptr_t hi = __atomic_load_n(&self_hi, __ATOMIC_RELAXED);

    nraw = max < RAW_MAX - RAW_SLACK ? max + RAW_SLACK : RAW_MAX;
#ifdef MC_STACK_EXECINFO
    /* ThreadSanitizer builds only (tests/tsan.sh): libunwind's per-thread
     * trace cache is freed by a thread-specific-data destructor that runs
     * after ThreadSanitizer has finished the thread, and its mutex call
     * there crashes ThreadSanitizer's runtime at every thread exit. */
    int got = backtrace(raw, (int)nraw);
#else
    int got = unw_backtrace(raw, (int)nraw); /* falls back to unw_step itself */
#endif
    nraw = got > 0 ? (size_t)got : 0;
    for (size_t i = 0; i < nraw && i < 8; i++) /* it is at [2] in 1.6 */
        if ((uintptr_t)raw[i] == caller) {
            start = i;
            break;
        }
    for (size_t i = start; i < nraw && n < max; i++) {
        uintptr_t pc = (uintptr_t)raw[i];
        if (pc == 0 || (pc >= lo && pc < hi))
            continue;
        pcs[n++] = pc;
    }
    return n;
}

size_t mc_stack_site_index(const uintptr_t *pcs, size_t n, uintptr_t caller)
{
    for (size_t i = 0; caller && i < n; i++)
        if (pcs[i] == caller)
            return i;
    return 0;
}

size_t mc_stack_trim_to_site(uintptr_t *pcs, size_t n, uintptr_t caller)
{
    size_t from = mc_stack_site_index(pcs, n, caller);
    memmove(pcs, pcs + from, (n - from) * sizeof pcs[0]);
    return n - from;
}

/* noinline for the same reason. The stack of a signal handler that
 * interrupted a wrapper: [handler and ours] [the signal frame, MPI's own
 * frames] [the wrapper] [the program]. Only the program's frames are
 * kept: the first run of the checker's frames after MPI's marks where it
 * starts. A thread interrupted outside MPI (in_mpi 0): every frame after
 * the handler's. */
__attribute__((noinline)) size_t mc_stack_capture_interrupted(uintptr_t *pcs, size_t max, int in_mpi)
{
    void *raw[RAW_MAX];
    size_t n = 0;
    if (max == 0 || pcs == NULL)
        return 0;
    if (!__atomic_load_n(&self_known, __ATOMIC_ACQUIRE))
        return 0;       /* no pthread_once from a signal handler */
    uintptr_t lo = __atomic_load_n(&self_lo, __ATOMIC_RELAXED);
    uintptr_t hi = __atomic_load_n(&self_hi, __ATOMIC_RELAXED);
#ifdef MC_STACK_EXECINFO
    int got = backtrace(raw, RAW_MAX);
#else
    int got = unw_backtrace(raw, RAW_MAX);
#endif
    int part = 0;       /* 0 handler, 1 MPI, 2 wrapper, 3 program, 4 the signal frame */
    for (int i = 0; i < got && n < max; i++) {
        uintptr_t pc = (uintptr_t)raw[i];
        int ours = pc >= lo && pc < hi;
        if (part == 4)
            part = 3;
        if (part == 0 && !ours)
            part = in_mpi ? 1 : 4;      /* outside MPI: everything after the signal's frame */
        else if (part == 1 && ours)
            part = 2;
        else if (part == 2 && !ours)
            part = 3;
        if (part == 3 && pc && !ours)
            pcs[n++] = pc;
    }
    return n;
}

/* One Dwfl for the process: building it reads /proc/self/maps and opens
 * every ELF lazily, far too slow per report. libdwfl is not thread-safe. */
static Dwfl *dwfl;
static pthread_mutex_t dwfl_lock = PTHREAD_MUTEX_INITIALIZER;
static char *debuginfo_path; /* NULL: libdwfl's default search path */
static const Dwfl_Callbacks dwfl_cbs = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* (Re)reads the mappings; a re-report keeps the modules still mapped and
 * adds the ones dlopen'ed since. Caller holds dwfl_lock. */
static int dwfl_rereport(Dwfl *d)
{
    dwfl_report_begin(d);
    int rc = dwfl_linux_proc_report(d, getpid());
    if (dwfl_report_end(d, NULL, NULL) != 0)
        return -1;
    return rc;
}

/* The session's Dwfl, made at the first report. Caller holds dwfl_lock. */
static int dwfl_ready(void)
{
    if (!dwfl) {
        dwfl = dwfl_begin(&dwfl_cbs);
        if (dwfl && dwfl_rereport(dwfl) < 0) {
            dwfl_end(dwfl);
            dwfl = NULL; /* retried on the next report */
        }
    }
    return dwfl != NULL;
}

/* The module of return address pc. An unknown address may be in a library
 * dlopen'ed after the last report: once per stack (*rereported), so a
 * stack of garbage costs one re-read, not one per frame. Caller holds
 * dwfl_lock, after dwfl_ready. */
static Dwfl_Module *module_at(uintptr_t pc, int *rereported)
{
    if (pc == 0)
        return NULL;
    Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc - 1);
    if (!mod && !*rereported) {
        *rereported = 1;
        dwfl_rereport(dwfl);
        mod = dwfl_addrmodule(dwfl, pc - 1);
    }
    return mod;
}

void mc_stack_resolve(const uintptr_t *pcs, size_t n, mc_frame *out)
{
    int rereported = 0;

    for (size_t i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].pc = pcs[i];
    }
    pthread_mutex_lock(&dwfl_lock);
    for (size_t i = 0; dwfl_ready() && i < n; i++) {
        Dwfl_Module *mod = module_at(pcs[i], &rereported);
        if (mod)
            mc_frame_resolve(mod, pcs[i], &out[i]);
    }
    pthread_mutex_unlock(&dwfl_lock);
}

size_t mc_stack_resolve_inlined(const uintptr_t *pcs, size_t n, mc_frame **out)
{
    *out = NULL;
    mc_frame *f = n ? mc_calloc(n * MC_INLINED_MAX, sizeof *f) : NULL;
    if (!f)
        return 0;
    int rereported = 0;
    size_t k = 0;
    pthread_mutex_lock(&dwfl_lock);
    int ready = dwfl_ready();
    for (size_t i = 0; i < n; i++) {
        Dwfl_Module *mod = ready ? module_at(pcs[i], &rereported) : NULL;
        f[k].pc = pcs[i];
        k += mod ? mc_frame_resolve_inlined(mod, pcs[i], &f[k], MC_INLINED_MAX) : 1;
    }
    pthread_mutex_unlock(&dwfl_lock);
    mc_frame *fit = mc_realloc(f, k * sizeof *f);
    *out = fit ? fit : f;
    return k;
}

void mc_frames_free(mc_frame *frames, size_t n)
{
    for (size_t i = 0; frames && i < n; i++) {
        free(frames[i].function);
        free(frames[i].file);
        free(frames[i].module);
        frames[i].function = frames[i].file = frames[i].module = NULL;
    }
}
