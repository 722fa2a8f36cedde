/*
 * command.c - the checker library, the launcher command and the ranks'
 * environment (see command.h).
 *
 * LD_PRELOAD must reach the ranks but not mpirun itself: the checker links
 * libmpi, and preloading it into mpirun/orted/hydra would load a second MPI
 * into the runtime daemons. Known launchers therefore get it as an option
 * (-x / -genv) that applies to the ranks only; an unknown launcher (srun,
 * ...) has no such option we know of, so there it goes into the environment.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX/GNU calls (strndup, realpath...) even under -std=c11 */
#endif
#include "command.h"
#include "relay_wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "detect.h"

static char *join3(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    if (s != NULL)
        snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* dirname that returns a new string ("/a/b" -> "/a", "/a" -> "/"). */
static char *parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

char *mc_find_library(mc_mpi_flavor flavor, const char *self_exe,
                      const char *(*getenv_fn)(const char *),
                      char *err, size_t errlen)
{
    const char *fname = mc_mpi_flavor_name(flavor);
    const char *var = flavor == MC_MPI_MPICH ? "MPICHECK_INTERNAL_LIB_MPICH"
                                             : "MPICHECK_INTERNAL_LIB_OPENMPI";
    char *cands[4] = {NULL, NULL, NULL, NULL};
    size_t ncand = 0;
    char *found = NULL;

    const char *over = getenv_fn ? getenv_fn(var) : NULL;
    if (over != NULL && *over != '\0') {
        /* An explicit path is used alone: silently falling back to another
         * library would hide a mistake in it. */
        if (access(over, R_OK) == 0)
            return strdup(over);
        snprintf(err, errlen, "no checker library for %s found (looked in: %s=%s); "
                 "build it with ./scripts/check or install mpicheck for this MPI",
                 mc_flavor_display(flavor), var, over);
        return NULL;
    }

    if (self_exe != NULL) {
        char *exe_dir = parent_dir(self_exe);
        /* A libtool-wrapped binary really runs from src/.libs/. */
        if (exe_dir != NULL && strcmp(base_name(exe_dir), ".libs") == 0) {
            char *up = parent_dir(exe_dir);
            free(exe_dir);
            exe_dir = up;
        }
        if (exe_dir != NULL) {
            char *prefix = parent_dir(exe_dir);
            if (prefix != NULL) {
                char *mid = join3("/lib/mpicheck/", fname, "/libmpicheck.so");
                if (mid != NULL) /* no "//lib" for an exe in / */
                    cands[ncand++] = join3(strcmp(prefix, "/") ? prefix : "", mid, "");
                free(mid);
                /* Build tree: <srcroot>/build/<any>/src/mpicheck. */
                char *build = parent_dir(prefix);
                if (build != NULL && strcmp(base_name(exe_dir), "src") == 0 &&
                    strcmp(base_name(build), "build") == 0) {
                    char *tail = join3("/", fname, "/src/.libs/libmpicheck.so");
                    if (tail != NULL)
                        cands[ncand++] = join3(build, tail, "");
                    free(tail);
                }
                free(build);
                free(prefix);
            }
            free(exe_dir);
        }
    }

#ifdef MPICHECK_PKGLIBDIR
    /* The configured install location, last: a stale install must not win
     * over the tree the launcher runs from (e.g. libdir is lib/<multiarch>). */
    {
        char *mid = join3("/", fname, "/libmpicheck.so");
        if (mid != NULL)
            cands[ncand++] = join3(MPICHECK_PKGLIBDIR, mid, "");
        free(mid);
    }
#endif
    for (size_t i = 0; i < ncand && found == NULL; i++)
        if (cands[i] != NULL && access(cands[i], R_OK) == 0)
            found = strdup(cands[i]);
    if (found == NULL) {
        char looked[2048] = "";
        size_t off = 0;
        for (size_t i = 0; i < ncand && off < sizeof looked; i++)
            if (cands[i] != NULL) {
                int w = snprintf(looked + off, sizeof looked - off, "%s%s",
                                 off ? ", " : "", cands[i]);
                if (w > 0)
                    off += (size_t)w;
            }
        snprintf(err, errlen, "no checker library for %s found (looked in: $%s%s%s); "
                 "build it with ./scripts/check or install mpicheck for this MPI",
                 mc_flavor_display(flavor), var, off ? " (unset), " : " (unset)", looked);
    }
    for (size_t i = 0; i < ncand; i++)
        free(cands[i]);
    return found;
}

int mc_split_words(const char *s, char ***words)
{
    size_t cap = 4, n = 0;
    char **w = malloc(cap * sizeof *w);
    if (w == NULL)
        return -1;
    const char *p = s ? s : "";
    for (;;) {
        p += strspn(p, " \t\n");
        if (*p == '\0')
            break;
        size_t len = strcspn(p, " \t\n");
        if (n + 2 > cap) {
            char **bigger = realloc(w, (cap *= 2) * sizeof *w);
            if (bigger == NULL)
                goto fail;
            w = bigger;
        }
        if ((w[n] = strndup(p, len)) == NULL)
            goto fail;
        n++;
        p += len;
    }
    w[n] = NULL;
    *words = w;
    return (int)n;
fail:
    w[n] = NULL;
    mc_free_words(w);
    return -1;
}

void mc_free_words(char **words)
{
    if (words == NULL)
        return;
    for (char **p = words; *p; p++)
        free(*p);
    free(words);
}

const char *mc_default_launcher(mc_mpi_flavor flavor, const char *path_env,
                                char *err, size_t errlen)
{
    static const char *const ompi[] = {"mpirun.openmpi", "mpirun", NULL};
    static const char *const mpich[] = {"mpirun.mpich", "mpiexec.hydra",
                                        "mpiexec.mpich", "mpirun", NULL};
    const char *const *list = flavor == MC_MPI_MPICH ? mpich : ompi;
    for (size_t i = 0; list[i] != NULL; i++) {
        char *p = mc_which(list[i], path_env);
        if (p != NULL) {
            free(p);
            return list[i];
        }
    }
    char tried[256] = "";
    size_t off = 0;
    for (size_t i = 0; list[i] != NULL && off < sizeof tried; i++) {
        int w = snprintf(tried + off, sizeof tried - off, "%s%s", i ? ", " : "", list[i]);
        if (w > 0)
            off += (size_t)w;
    }
    snprintf(err, errlen, "no launcher for %s found in PATH (tried %s); pass --launcher=CMD",
             mc_flavor_display(flavor), tried);
    return NULL;
}

/* Never passed on: the ranks must not write the job report themselves, and
 * the error exit code is applied by the launcher alone. DEBUGINFOD_URLS would
 * make libdw fetch debug info over the network while a finding's stack is
 * resolved, stalling the rank for as long as the network takes. */
static const char *const unset_vars[] = {
    "MPICHECK_REPORT", "MPICHECK_SARIF", "MPICHECK_HTML", "MPICHECK_ERROR_EXITCODE", "DEBUGINFOD_URLS",
};

static int push(char ***vec, size_t *n, size_t *cap, char *s)
{
    if (s == NULL)
        return -1;
    if (*n + 2 > *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        char **bigger = realloc(*vec, nc * sizeof **vec);
        if (bigger == NULL) {
            free(s);
            return -1;
        }
        *vec = bigger;
        *cap = nc;
    }
    (*vec)[(*n)++] = s;
    (*vec)[*n] = NULL;
    return 0;
}

static int add_env(mc_command *cmd, size_t *cap, const char *name, const char *value)
{
    if (cmd->nset + 1 > *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        char **names = realloc(cmd->set_names, nc * sizeof *names);
        if (names == NULL)
            return -1;
        cmd->set_names = names;
        char **values = realloc(cmd->set_values, nc * sizeof *values);
        if (values == NULL)
            return -1;
        cmd->set_values = values;
        *cap = nc;
    }
    cmd->set_names[cmd->nset] = strdup(name);
    cmd->set_values[cmd->nset] = strdup(value);
    cmd->nset++;
    return cmd->set_names[cmd->nset - 1] && cmd->set_values[cmd->nset - 1] ? 0 : -1;
}

int mc_build_command(const mc_command_spec *spec, mc_command *cmd)
{
    size_t cap = 0, envcap = 0;
    char timeout[64];
    const mc_config *cfg = spec->cfg;

    memset(cmd, 0, sizeof *cmd);
    cmd->unset = unset_vars;
    cmd->nunset = sizeof unset_vars / sizeof unset_vars[0];

    char *preload = spec->old_preload && *spec->old_preload
                        ? join3(spec->library, ":", spec->old_preload)
                        : strdup(spec->library);
    if (preload == NULL)
        return -1;

    snprintf(timeout, sizeof timeout, "%.9g", cfg->timeout_s);
    if (add_env(cmd, &envcap, "MPICHECK_DIR", spec->dir) ||
        add_env(cmd, &envcap, "MPICHECK_TIMEOUT", timeout) ||
        add_env(cmd, &envcap, "MPICHECK_MODE", mc_mode_name(cfg->mode)) ||
        add_env(cmd, &envcap, "MPICHECK_ABORT_ON_DEADLOCK",
                cfg->abort_on_deadlock ? "yes" : "no") ||
        add_env(cmd, &envcap, "MPICHECK_CHECK_BUFFERS", cfg->check_buffers ? "yes" : "no") ||
        add_env(cmd, &envcap, "MPICHECK_COLOR", spec->color ? "1" : "0") ||
        (cfg->checks && add_env(cmd, &envcap, "MPICHECK_CHECKS", cfg->checks)) ||
        (cfg->suppressions && add_env(cmd, &envcap, "MPICHECK_SUPPRESSIONS", cfg->suppressions)) ||
        (spec->collector && add_env(cmd, &envcap, MC_RELAY_ENV, spec->collector)))
        goto fail;

    for (size_t i = 0; spec->launcher[i] != NULL; i++)
        if (push(&cmd->argv, &cmd->argc, &cap, strdup(spec->launcher[i])))
            goto fail;

    if (spec->launcher_kind == MC_MPI_OPENMPI) {
        if (push(&cmd->argv, &cmd->argc, &cap, strdup("-x")) ||
            push(&cmd->argv, &cmd->argc, &cap, join3("LD_PRELOAD=", preload, "")))
            goto fail;
    } else if (spec->launcher_kind == MC_MPI_MPICH) {
        if (push(&cmd->argv, &cmd->argc, &cap, strdup("-genv")) ||
            push(&cmd->argv, &cmd->argc, &cap, strdup("LD_PRELOAD")) ||
            push(&cmd->argv, &cmd->argc, &cap, strdup(preload)))
            goto fail;
    } else if (add_env(cmd, &envcap, "LD_PRELOAD", preload)) {
        goto fail;
    }

    /* Local ranks would inherit these anyway; naming them makes remote
     * ranks get them too, and survives a user's -genvnone. */
    if (spec->launcher_kind != MC_MPI_UNKNOWN) {
        for (size_t i = 0; i < cmd->nset; i++) {
            if (strcmp(cmd->set_names[i], "LD_PRELOAD") == 0)
                continue;
            int bad = spec->launcher_kind == MC_MPI_OPENMPI
                ? push(&cmd->argv, &cmd->argc, &cap, strdup("-x")) ||
                  push(&cmd->argv, &cmd->argc, &cap, strdup(cmd->set_names[i]))
                : push(&cmd->argv, &cmd->argc, &cap, strdup("-genv")) ||
                  push(&cmd->argv, &cmd->argc, &cap, strdup(cmd->set_names[i])) ||
                  push(&cmd->argv, &cmd->argc, &cap, strdup(cmd->set_values[i]));
            if (bad)
                goto fail;
        }
        /* The library's internal knobs, set by the user for debugging. */
        for (char *const *e = spec->envp; spec->launcher_kind == MC_MPI_OPENMPI &&
                                          e != NULL && *e != NULL; e++) {
            if (strncmp(*e, "MPICHECK_INTERNAL_", 18) != 0 ||
                strncmp(*e, "MPICHECK_INTERNAL_LIB_", 22) == 0)
                continue;
            const char *eq = strchr(*e, '=');
            if (push(&cmd->argv, &cmd->argc, &cap, strdup("-x")) ||
                push(&cmd->argv, &cmd->argc, &cap,
                     eq ? strndup(*e, (size_t)(eq - *e)) : strdup(*e)))
                goto fail;
        }
    }

    for (int i = 0; i < spec->nrest; i++)
        if (push(&cmd->argv, &cmd->argc, &cap, strdup(spec->rest[i])))
            goto fail;
    free(preload);
    return 0;
fail:
    free(preload);
    mc_command_clear(cmd);
    return -1;
}

void mc_command_clear(mc_command *cmd)
{
    for (size_t i = 0; i < cmd->argc; i++)
        free(cmd->argv[i]);
    free(cmd->argv);
    for (size_t i = 0; i < cmd->nset; i++) {
        free(cmd->set_names[i]);
        free(cmd->set_values[i]);
    }
    free(cmd->set_names);
    free(cmd->set_values);
    memset(cmd, 0, sizeof *cmd);
}
