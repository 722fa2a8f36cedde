/*
 * module.h - what a family of checks tells core: which calls it looks at,
 * and what it does before and after them and at the ends of the run.
 *
 * Core (src/core/modules.c) holds the one list of modules, in the order
 * they run, and names nothing else of them: a family is a folder that
 * defines one `const mc_module` and one line in that list (docs/design.md,
 * "Where a new check goes"; docs/new-module.md is the skeleton to copy).
 * The type lives at the bottom layer because every family, at any layer
 * below core, defines one.
 */
#ifndef MPICHECK_MODULE_H
#define MPICHECK_MODULE_H

#include "call.h"

typedef struct mc_module {
    const char *name;
    /* Calls made before MPI_Init, after MPI_Finalize, and MPI_Init itself:
     * nothing can be queried yet, so only what needs no MPI (call order). */
    void (*outside)(mc_call *c);
    /* Which calls enter() sees: those with a parameter whose role is in
     * roles (MC_ROLE_BIT), and with engine = 1 the calls of the functions
     * it claims (below) made while the handshake engine runs. */
    unsigned long long roles;
    int engine;
    /* Functions it handles whatever their roles (collectives): never taken
     * through core's fast path for calls that only read a handle. */
    int (*claims)(int fn);
    void (*enter)(mc_call *c);              /* before the real call, in list order */
    /* After the real call; ok: it returned MPI_SUCCESS. Called for the calls
     * enter() would see (roles: leave_roles instead of roles). */
    unsigned long long leave_roles;
    void (*leave)(mc_call *c, int ok);
    void (*load)(void);                     /* library load: register with the runtime */
    void (*end)(void);                      /* end of the run, table lock held: end-of-run checks */
} mc_module;

#endif
