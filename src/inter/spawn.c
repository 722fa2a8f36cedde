/*
 * spawn.c - MPI_Comm_spawn(_multiple): the children start under the
 * checker, so the intercommunicator between parents and children gets a
 * shadow on both sides and its traffic and collectives are checked.
 *
 * A shadow is made collectively over both groups: the parents may make one
 * only when they know for certain that every child makes it too, or they
 * would wait forever. So the root starts each command through
 *
 *     /usr/bin/env MPICHECK_INTERNAL_SPAWNED=<label> LD_PRELOAD=<this library>
 *         MPICHECK_...=<the parent's settings> /bin/sh -c 'exec "$0" "$@"'
 *         <command> <its arguments>
 *
 * and the children then load the checker whatever the launcher passes on,
 * with the parents' settings, and know from MPICHECK_INTERNAL_SPAWNED that
 * their parents make the shadow. mc_inter_spawned_start, at MPI_Init,
 * takes the variable out of the environment so that the children's own
 * children do not inherit it; its value labels their job in reports
 * ("spawn 0.1": world rank 0's first spawn), whose world ranks repeat the
 * parents'. The shell's exec looks the command up
 * exactly as the launcher would (PATH in the working directory MPI chose);
 * the command is its $0, never parsed, whatever characters it holds. The
 * root tells the other parents (one broadcast over the spawning
 * communicator's handshake communicator before the call) whether it
 * started the children so: every parent decides alike.
 *
 * What changes for the program: its children see three more variables
 * and a preload of the checker; a command that cannot be found makes the
 * shell exit (127) in the child instead of MPI failing the spawn.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inter.h"
#include "inter_internal.h"
#include "objects.h"
#include "rank_board.h"
#include "skipped.h"
#include "state.h"

#define SPAWNED_VAR "MPICHECK_INTERNAL_SPAWNED"
#define PATH_VAR "MPICHECK_INTERNAL_SPAWN_PATH"
/* MPI_Comm_spawn's "path" info key lists directories to find the command
 * in: the shell searches them first. */
static const char SCRIPT[] =
    "if [ -n \"$" PATH_VAR "\" ]; then PATH=\"$" PATH_VAR ":$PATH\"; fi; unset " PATH_VAR "; exec \"$0\" \"$@\"";

/* From the call's enter to its leave (a blocking call: one per thread). */
static __thread struct {
    int active;         /* the parents agreed before the call */
    int wrapped;        /* the root started the children under the checker */
    int count;
    char **cmds;        /* the root's rewritten commands and argument lists */
    char ***argvs;
    char label[80];     /* the children's job label (the root's) */
} sp;

static void free_args(void)
{
    for (int i = 0; i < sp.count; i++) {
        if (sp.argvs && sp.argvs[i]) {
            for (char **a = sp.argvs[i]; *a; a++)
                free(*a);
            free(sp.argvs[i]);
        }
    }
    free(sp.cmds);
    free(sp.argvs);
    sp.cmds = NULL;
    sp.argvs = NULL;
    sp.count = 0;
}

/* The file this checker was loaded from, if it is a library of its own
 * (a program that links the checker statically cannot pass it on). */
static const char *own_library(void)
{
    Dl_info di;
    if (!dladdr((void *)own_library, &di) || !di.dli_fname || di.dli_fname[0] != '/'
        || !strstr(di.dli_fname, "libmpicheck"))
        return NULL;
    return di.dli_fname;
}

static const char *env_program(void)
{
    if (access("/usr/bin/env", X_OK) == 0)
        return "/usr/bin/env";
    if (access("/bin/env", X_OK) == 0)
        return "/bin/env";
    return NULL;
}

static char *joined(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = mc_malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* The "path" info value of info, or NULL. */
static char *info_path(MPI_Info info)
{
    if (info == MPI_INFO_NULL)
        return NULL;
    char v[4096];
    int flag = 0;
    if (PMPI_Info_get(info, "path", (int)sizeof v - 1, v, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    return mc_strdup(v);
}

/* The argument list that starts command with args under the checker:
 * env's assignments, then the shell, then the command and its arguments. */
static char **wrapped_argv(const char *lib, const char *label, const char *command, char *const args[],
                           MPI_Info info)
{
    size_t nenv = 0, nargs = 0;
    for (char **e = environ; e && *e; e++)
        nenv++;
    for (char *const *a = args; a && *a; a++)
        nargs++;
    char **v = mc_calloc(nenv + nargs + 8, sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    const char *pre = getenv("LD_PRELOAD");     /* the program's own, without the checker */
    char *path = info_path(info);
    v[k++] = joined(SPAWNED_VAR "=", label, "");
    char *libs = joined(lib, pre && *pre ? ":" : "", pre ? pre : "");
    v[k++] = libs ? joined("LD_PRELOAD=", libs, "") : NULL;
    free(libs);
    if (path) {
        v[k++] = joined(PATH_VAR "=", path, "");
        free(path);
    }
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "MPICHECK_", 9) == 0 && strncmp(*e, SPAWNED_VAR "=", strlen(SPAWNED_VAR) + 1) != 0
            && strncmp(*e, PATH_VAR "=", strlen(PATH_VAR) + 1) != 0)
            v[k++] = mc_strdup(*e);
    v[k++] = mc_strdup("/bin/sh");
    v[k++] = mc_strdup("-c");
    v[k++] = mc_strdup(SCRIPT);
    v[k++] = mc_strdup(command);
    for (char *const *a = args; a && *a; a++)
        v[k++] = mc_strdup(*a);
    for (size_t i = 0; i < k; i++) {
        if (!v[i]) {
            for (size_t j = 0; j < k; j++)
                free(v[j]);
            free(v);
            return NULL;
        }
    }
    return v;
}

/* The root's rewritten arguments; 1 when every command has them. */
static int build_args(mc_call *c)
{
    const char *lib = own_library(), *env = env_program();
    if (!lib || !env)
        return 0;
    int multiple = c->fn == MC_FN_MPI_Comm_spawn_multiple;
    int count = multiple ? c->vals[0].i : 1;
    if (count <= 0)
        return 0;
    sp.cmds = mc_calloc((size_t)count, sizeof *sp.cmds);
    sp.argvs = mc_calloc((size_t)count, sizeof *sp.argvs);
    if (!sp.cmds || !sp.argvs) {
        free_args();
        return 0;
    }
    sp.count = count;
    /* The children's label in reports: this root's world rank and its
     * how-manieth spawn, after its own job's label ("spawn 0.1/1.2"). */
    static int spawns;
    char *label = sp.label;
    snprintf(label, sizeof sp.label, "%.47s%s%d.%d", mc_st.job[0] ? mc_st.job : "spawn ", mc_st.job[0] ? "/" : "",
             mc_st.world_rank, ++spawns);
    for (int i = 0; i < count; i++) {
        const char *cmd;
        char *const *args;
        MPI_Info info;
        if (multiple) {
            char *const *cmds = c->vals[1].p;
            char **const *argvs = c->vals[2].p;
            const MPI_Info *infos = c->vals[4].p;
            cmd = cmds ? cmds[i] : NULL;
            args = argvs != MPI_ARGVS_NULL ? argvs[i] : NULL;
            info = infos ? infos[i] : MPI_INFO_NULL;
        } else {
            cmd = c->vals[0].p;
            args = c->vals[1].p;
            info = c->vals[3].info;
        }
        if (!cmd || !(sp.argvs[i] = wrapped_argv(lib, label, cmd, args, info))) {
            free_args();
            return 0;
        }
        sp.cmds[i] = (char *)env;
    }
    return 1;
}

void ic_spawn_enter(mc_call *c)
{
    free_args();
    memset(&sp, 0, sizeof sp);
    if (!mc_eng_on || mc_st.finalizing || c->invalid)
        return;
    int multiple = c->fn == MC_FN_MPI_Comm_spawn_multiple;
    int root = c->vals[multiple ? 5 : 4].i;
    MPI_Comm comm = c->vals[multiple ? 6 : 5].comm;
    mc_eng_lock();
    mc_pcomm *pc = mc_pcomm_get(comm);
    MPI_Comm flat = pc && !pc->is_inter && !pc->coll_off ? pc->flat : MPI_COMM_NULL;
    int rank = pc ? pc->rank : -1, size = pc ? pc->size : 0;
    int rw = pc && root >= 0 && root < size ? mc_pcomm_world_rank(pc, root) : -1;
    mc_eng_unlock();
    /* Every parent takes the same path: the handshake agreed on root. */
    if (flat == MPI_COMM_NULL || root < 0 || root >= size)
        return;
    int wrapped = rank == root ? build_args(c) : 0;
    if (ic_bcast(c, &wrapped, root, flat, rank == root ? -1 : rw) != 0) {
        free_args();
        return;
    }
    sp.active = 1;
    sp.wrapped = wrapped;
    /* The launcher's hang watch leaves the parents alone while the
     * children's job is not all there: they may compute before MPI_Init. */
    if (rank == root && wrapped)
        mc_board_spawning(sp.label);
}

int mc_inter_spawn_args(char ***commands, char ****argvs)
{
    if (!sp.active || !sp.wrapped || !sp.cmds)
        return 0;
    *commands = sp.cmds;
    *argvs = sp.argvs;
    return 1;
}

void ic_spawn_leave(mc_call *c, int ok)
{
    (void)ok;
    /* The intercommunicator exists wherever a child started (some may have
     * failed: array_of_errcodes says which); the children that started
     * make the shadow at their MPI_Init. */
    if (sp.active && sp.wrapped)
        c->dynamic_checked = 1;
    mc_board_spawning(NULL);
    free_args();
    memset(&sp, 0, sizeof sp);
}

const char *mc_inter_parent_label(void)
{
    const char *v = getenv(SPAWNED_VAR);
    return v && *v ? v : NULL;
}

void mc_inter_spawned_start(void)
{
    const char *v = getenv(SPAWNED_VAR);
    int marked = v && *v;       /* its label: lifecycle.c took it for mc_st.job */
    unsetenv(SPAWNED_VAR);
    if (!marked || mc_st.phase != MC_PHASE_RUNNING)
        return;
    MPI_Comm parent = MPI_COMM_NULL;
    if (PMPI_Comm_get_parent(&parent) != MPI_SUCCESS || parent == MPI_COMM_NULL)
        return;
    /* The library owns the parent communicator: it is never a leak. */
    mc_call boot = {.fn = MC_FN_MPI_Comm_get_parent, .desc = &mc_fn_table[MC_FN_MPI_Comm_get_parent],
                    .dynamic_checked = 1};
    MC_LOCK();
    mc_obj *o = mc_comm_find(parent) ? NULL : mc_obj_add(MC_OBJ_COMM, MC_BITS(parent), &boot, 0);
    if (o) {
        o->owned = 0;
        mc_comm_fill(o, parent);
    }
    MC_UNLOCK();
    /* The parents make it in their MPI_Comm_spawn now: the same split and
     * merge, in the same order. */
    mc_eng_comm_created(&boot, parent);
}
