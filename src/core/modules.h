/*
 * modules.h - core's list of modules (util/module.h) and the loops that run
 * them around every call: the only place core learns what families exist.
 */
#ifndef MPICHECK_MODULES_H
#define MPICHECK_MODULES_H

#include "module.h"

void mc_modules_load(void);                 /* at library load */
void mc_modules_outside(mc_call *c);        /* a call outside MPI_Init..MPI_Finalize */
void mc_modules_enter(mc_call *c);          /* before the real call, in list order */
void mc_modules_leave(mc_call *c, int ok);  /* after it, in reverse order */
int mc_modules_claim(int fn);               /* a module handles fn whatever its roles */
void mc_modules_end(void);                  /* end of the run, table lock held */

#endif
