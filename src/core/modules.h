/*
 * modules.h - core's list of modules (util/module.h) and the loops that run
 * them around every call: the only place core learns what families exist.
 */
#ifndef MPICHECK_MODULES_H
#define MPICHECK_MODULES_H

#include "module.h"

void mc_modules_load(void);                 /* at library load */
void mc_modules_outside(mc_call *c);        /* a call outside MPI_Init..MPI_Finalize */
int mc_modules_claim(int fn);               /* a module handles fn whatever its roles */
void mc_modules_end(void);                  /* end of the run, table lock held */

/* Which modules see each function (bit i: mc_modules[i]), set at load;
 * inline below because every call that is not light runs both. */
extern const mc_module *const mc_modules[];
extern unsigned char mc_modules_enter_mask[], mc_modules_leave_mask[];
extern unsigned char mc_modules_engine_enter[], mc_modules_engine_leave[];  /* while the engine runs */

/* Before the real call, in list order. */
static inline void mc_modules_enter(mc_call *c)
{
    unsigned m = mc_modules_enter_mask[c->fn] | (c->engine ? mc_modules_engine_enter[c->fn] : 0u);
    for (; m; m &= m - 1)
        mc_modules[__builtin_ctz(m)]->enter(c);
}

/* After it, in reverse order. */
static inline void mc_modules_leave(mc_call *c, int ok)
{
    unsigned m = mc_modules_leave_mask[c->fn] | (c->engine ? mc_modules_engine_leave[c->fn] : 0u);
    while (m) {
        int i = 31 - __builtin_clz(m);
        m &= ~(1u << i);
        mc_modules[i]->leave(c, ok);
    }
}

#endif
