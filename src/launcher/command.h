/*
 * command.h - what the launcher runs: the checker library for the flavor,
 * the launcher command, and the environment the ranks must see.
 */
#ifndef MPICHECK_LAUNCHER_COMMAND_H
#define MPICHECK_LAUNCHER_COMMAND_H

#include <stddef.h>
#include "config.h"

/* The command to exec and the environment changes to make in the child
 * just before exec (mpicheck's own environment is left alone). */
typedef struct {
    char **argv;        /* NULL-terminated, owned */
    size_t argc;
    char **set_names;   /* variables to set (owned) ... */
    char **set_values;  /* ... to these values (owned) */
    size_t nset;
    const char *const *unset; /* variables to remove (static strings) */
    size_t nunset;
} mc_command;

/* Finds libmpicheck.so for flavor: $MPICHECK_INTERNAL_LIB_OPENMPI /
 * _MPICH, then <exe_dir>/../lib/mpicheck/<flavor>/libmpicheck.so, then the
 * build tree <srcroot>/build/<flavor>/src/.libs/libmpicheck.so when
 * self_exe is <srcroot>/build/<any>/src/[.libs/]mpicheck, then (when built
 * with -DMPICHECK_PKGLIBDIR='"$(pkglibdir)"') <pkglibdir>/<flavor>/
 * libmpicheck.so. self_exe is the
 * launcher's own path (/proc/self/exe resolved). Returns a malloc'd path or
 * NULL with err naming every place looked in. */
char *mc_find_library(mc_mpi_flavor flavor, const char *self_exe,
                      const char *(*getenv_fn)(const char *),
                      char *err, size_t errlen);

/* Splits s on blanks into a malloc'd NULL-terminated vector (free with
 * mc_free_words). Returns the number of words, -1 on allocation failure. */
int mc_split_words(const char *s, char ***words);
void mc_free_words(char **words);

/* The default launcher for flavor: Open MPI: mpirun.openmpi, else mpirun;
 * MPICH: mpirun.mpich, mpiexec.hydra, mpiexec.mpich, else mpirun; the first
 * found in path_env. Returns a static name, or NULL with err filled. */
const char *mc_default_launcher(mc_mpi_flavor flavor, const char *path_env,
                                char *err, size_t errlen);

/* Inputs of mc_build_command. */
typedef struct {
    char *const *launcher;      /* launcher words (NULL-terminated) */
    mc_mpi_flavor launcher_kind;/* whose mpirun it is; UNKNOWN: srun etc. */
    char *const *rest;          /* launcher args, PROGRAM, its args */
    int nrest;
    const char *library;        /* libmpicheck.so to preload */
    const char *old_preload;    /* LD_PRELOAD of mpicheck itself, or NULL */
    const char *dir;            /* private part directory */
    const mc_config *cfg;
    int color;                  /* MPICHECK_COLOR for the ranks */
    char *const *envp;          /* to forward MPICHECK_INTERNAL_* with -x */
    const char *collector;      /* where ranks of other nodes send their parts (collect.h), or NULL */
} mc_command_spec;

/* Builds the command line and environment changes (see docs/usage.md):
 * Open MPI: launcher -x LD_PRELOAD=lib[:old] -x MPICHECK_... rest...
 * MPICH:    launcher -genv LD_PRELOAD lib[:old] rest...
 * other:    launcher rest..., with LD_PRELOAD set in the environment.
 * MPICHECK_REPORT/SARIF/ERROR_EXITCODE are always unset. 0 or -1 (ENOMEM). */
int mc_build_command(const mc_command_spec *spec, mc_command *cmd);
void mc_command_clear(mc_command *cmd);

#endif
