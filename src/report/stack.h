/*
 * stack.h - call stacks of the application, walked with libunwind and turned
 * into function, file and line with libdw (elfutils).
 *
 * RATIONALE: capturing is cheap (program counters only) and done where a
 * finding may need it later; resolving to file:line is expensive (DWARF) and
 * done only when a finding is reported.
 */
#ifndef MPICHECK_STACK_H
#define MPICHECK_STACK_H

#include <stddef.h>
#include <stdint.h>
#include "finding.h"

/* Captures up to max return addresses of the current thread's stack into pcs,
 * innermost first, leaving out the frames that belong to libmpicheck itself
 * (so pcs[0] is the application's call site of the MPI function).
 * Returns the number stored (0 when unwinding fails). Async-signal-safe enough
 * to be called from a wrapper; never calls MPI. */
size_t mc_stack_capture(uintptr_t *pcs, size_t max);

/* Where the program's call site (the wrapper's return address caller)
 * is in a captured stack: the frames before it are MPI's own (a Fortran
 * binding between the program and the wrapper, an error handler MPI runs).
 * 0 when caller is 0 or not among the n frames. */
size_t mc_stack_site_index(const uintptr_t *pcs, size_t n, uintptr_t caller);
/* Drops those frames from a captured stack in place; the frames left. */
size_t mc_stack_trim_to_site(uintptr_t *pcs, size_t n, uintptr_t caller);

/* The same from a signal handler that interrupted this thread inside an
 * MPI call (in_mpi): only the program's frames (outward of the wrapper),
 * none of the handler's, the signal frame's or MPI's; outside one, every
 * frame after the handler's. 0 before the first capture of the process
 * (nothing is computed from a handler). */
size_t mc_stack_capture_interrupted(uintptr_t *pcs, size_t max, int in_mpi);

/* Resolves return addresses to frames (function, file, line, module) with
 * libdw. Each pc is a return address: the call instruction is looked up.
 * Frames are written to out[0..n-1]; strings are malloc'd (free with
 * mc_frames_free). Unresolvable fields stay NULL / 0, the pc is always set. */
void mc_stack_resolve(const uintptr_t *pcs, size_t n, mc_frame *out);

/* The same with a frame of its own for each subroutine the compiler
 * inlined at a return address (as `addr2line -i` shows them: the inlined
 * code first, then each caller at its call), so a frame's function and its
 * file:line agree and the program's own line is shown. Allocates *out;
 * returns the number of frames (at least n, 0 out of memory). */
size_t mc_stack_resolve_inlined(const uintptr_t *pcs, size_t n, mc_frame **out);

/* mc_stack_resolve_inlined for the stack of another process (pid), in its
 * own mappings (/proc/<pid>/maps): the launcher resolves the stacks a hung
 * job's ranks wrote into their boards (board_layout.h) while they still
 * run. Allocates *out; returns the number of frames. */
size_t mc_stack_resolve_pid(int pid, const uintptr_t *pcs, size_t n, mc_frame **out);

/* Frames one return address may expand to: inlining nests deeper than this
 * only in template-heavy C++, whose outer frames are then left out. */
#define MC_INLINED_MAX 8

/* One frame at return address pc in libdwfl's module mod (a Dwfl_Module;
 * both resolvers above use it): where the compiler inlined a subroutine
 * there, the frame of the innermost one (its name, its line). */
struct Dwfl_Module;
void mc_frame_resolve(struct Dwfl_Module *mod, uintptr_t pc, mc_frame *f);
/* The frames of pc, inlined subroutines expanded (f[0] innermost); at most
 * max, at least 1; returns how many. */
size_t mc_frame_resolve_inlined(struct Dwfl_Module *mod, uintptr_t pc, mc_frame *f, size_t max);
/* A symbol's name for a report: the version suffix cut, C++ demangled
 * (allocated; NULL out of memory). */
char *mc_function_name(const char *symbol);

/* The calling thread's Python frames (pystack.c), innermost first, when
 * the process is a Python interpreter and its GIL can be had without
 * waiting: function, file, line, module "python". At most max; returns
 * how many (0 in any other process). Strings are malloc'd. */
size_t mc_pystack_capture(mc_frame *out, size_t max);
/* Whether this process runs a Python interpreter whose frames reports show. */
int mc_pystack_active(void);
/* Puts those frames in front of a resolved stack (*stack is realloc'd). */
void mc_stack_prepend_python(mc_frame **stack, size_t *nframes);

/* Frees the strings of n frames (not the array). */
void mc_frames_free(mc_frame *frames, size_t n);

/* Marks [lo, hi) as the checker's own code, whose frames capture leaves out.
 * Called once at load time with the library's text range; exposed for tests. */
void mc_stack_set_self_range(uintptr_t lo, uintptr_t hi);

#endif
