/*
 * modules.c - the families of checks, in the order they see a call.
 *
 * A new family adds one line here (and its folder: docs/new-module.md).
 * The order matters: argument checks come first (a bad handle is reported
 * before anything uses it), the collective handshake before tracking (the
 * handshake of MPI_Comm_free still needs the shadow that tracking's free
 * lets go of). After the call they run in reverse, last in first out:
 * tracking records the call's new handles before the handshake of a
 * nonblocking collective is tied to its request, as it always was.
 */
#include <stddef.h>
#include "checks.h"
#include "coll.h"
#include "modules.h"
#include "objects.h"
#include "p2p.h"

static const mc_module *const modules[] = {
    &mc_checks_module,
    &mc_coll_module,
    &mc_track_module,
    &mc_p2p_module,
};
#define NMODULES (sizeof modules / sizeof modules[0])

void mc_modules_load(void)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i]->load)
            modules[i]->load();
}

void mc_modules_outside(mc_call *c)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i]->outside)
            modules[i]->outside(c);
}

void mc_modules_enter(mc_call *c)
{
    unsigned long long roles = c->desc->role_mask;
    for (size_t i = 0; i < NMODULES; i++) {
        const mc_module *m = modules[i];
        if (m->enter && ((roles & m->roles) || (m->engine && c->engine)))
            m->enter(c);
    }
}

void mc_modules_leave(mc_call *c, int ok)
{
    unsigned long long roles = c->desc->role_mask;
    for (size_t i = NMODULES; i-- > 0;) {
        const mc_module *m = modules[i];
        if (m->leave && ((roles & m->leave_roles) || (m->engine && c->engine)))
            m->leave(c, ok);
    }
}

int mc_modules_claim(int fn)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i]->claims && modules[i]->claims(fn))
            return 1;
    return 0;
}

void mc_modules_end(void)
{
    for (size_t i = 0; i < NMODULES; i++)
        if (modules[i]->end)
            modules[i]->end();
}
