/*
 * runtime_internal.h - what the files of the runtime share and nothing above
 * it calls.
 */
#ifndef MPICHECK_RUNTIME_INTERNAL_H
#define MPICHECK_RUNTIME_INTERNAL_H

#include "hooks.h"
#include "runtime.h"

/* engine.c: whether requests the application freed while active are still
 * driven to completion. */
int mc_eng_has_orphans(void);

/* bufwatch.c: buffer-modified. The end functions compare and report: the
 * program's call c completed the send, or MPI finished a freed one. The
 * report names the start of the operation of record op (p itself, or the
 * MPI_Isendrecv whose half p is). */
void mc_bufwatch_end(mc_prec *p, const mc_prec *op, const mc_call *c);
void mc_bufwatch_end_freed(mc_prec *p);
void mc_bufwatch_recv_end(mc_prec *p, const mc_prec *op, const mc_call *c);

/* deadlock_answer.c: whether a lower rank's detection asked this rank to
 * leave detection to it for now. */
int mc_dl_deferred(void);
/* The stack the calling thread's next wait shows (mc_eng_wait_as); NULL:
 * the thread's own at the time of the answer (deadlock_answer.c). */
void mc_dl_preset_stack(const uintptr_t *pcs, size_t npcs);

#endif
