/*
 * modules.c - the families of checks, in the order they see a call.
 *
 * A new family adds one line here (and its folder: docs/new-module.md).
 * The order matters: argument checks come first (a bad handle is reported
 * before anything uses it), the collective handshake before tracking (the
 * handshake of MPI_Comm_free still needs the shadow that tracking's free
 * lets go of). After the call they run in reverse, last in first out:
 * tracking records the call's new handles before the handshake of a
 * nonblocking collective is tied to its request, as it always was; the
 * intercommunicator checks agree on a new communicator's outcome before
 * tracking makes its shadow (a collective over it).
 */
#include <stddef.h>
#include "checks.h"
#include "fn_table.h"
#include "coll.h"
#include "inter.h"
#include "modules.h"
#include "objects.h"
#include "p2p.h"

const mc_module *const mc_modules[] = {
    &mc_checks_module,
    &mc_mpi_errors_module,
    &mc_coll_module,
    &mc_track_module,
    &mc_inter_module,
    &mc_p2p_module,
};
#define NMODULES (sizeof mc_modules / sizeof mc_modules[0])

/* Which modules see each function, found once at load from the roles in
 * the generated table: bit i is mc_modules[i] (modules.h runs them). A call
 * then costs a table load and the modules' own calls: a loop testing each
 * module's roles on every call cost some 130 instructions a call, 3.5% of
 * bench/call_overhead's self-message loop under callgrind. */
unsigned char mc_modules_enter_mask[MC_FN_COUNT_], mc_modules_leave_mask[MC_FN_COUNT_];
/* Modules with engine = 1, for the functions they claim: the collective
 * handshake sees collectives only, not every point-to-point call (two
 * indirect calls on each of those before). */
unsigned char mc_modules_engine_enter[MC_FN_COUNT_], mc_modules_engine_leave[MC_FN_COUNT_];
_Static_assert(NMODULES <= 8, "module masks are 8 bits");

void mc_modules_load(void)
{
    for (size_t i = 0; i < NMODULES; i++) {
        const mc_module *m = mc_modules[i];
        for (int fn = 0; fn < MC_FN_COUNT_; fn++) {
            int engine = m->engine && m->claims && m->claims(fn);
            if (engine && m->enter)
                mc_modules_engine_enter[fn] |= (unsigned char)(1u << i);
            if (engine && m->leave)
                mc_modules_engine_leave[fn] |= (unsigned char)(1u << i);
            unsigned long long roles = mc_fn_table[fn].role_mask;
            if (m->enter && (roles & m->roles))
                mc_modules_enter_mask[fn] |= (unsigned char)(1u << i);
            if (m->leave && (roles & m->leave_roles))
                mc_modules_leave_mask[fn] |= (unsigned char)(1u << i);
        }
    }
    for (size_t i = 0; i < NMODULES; i++)
        if (mc_modules[i]->load)
            mc_modules[i]->load();
}

void mc_modules_outside(mc_call *c)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (mc_modules[i]->outside)
            mc_modules[i]->outside(c);
}

int mc_modules_claim(int fn)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (mc_modules[i]->claims && mc_modules[i]->claims(fn))
            return 1;
    return 0;
}

void mc_modules_end(void)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (mc_modules[i]->end)
            mc_modules[i]->end();
}
