/*
 * args.h - the launcher's command line: mpicheck's own options, then the
 * launcher arguments, PROGRAM and its arguments, untouched.
 *
 *   mpicheck [OPTIONS] [--] [LAUNCHER-ARGS...] PROGRAM [ARGS...]
 *
 * Settings come from the MPICHECK_* environment first; options override.
 */
#ifndef MPICHECK_LAUNCHER_ARGS_H
#define MPICHECK_LAUNCHER_ARGS_H

#include <stddef.h>
#include <stdio.h>
#include "config.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.1.0"
#endif

enum {
    MC_ARGS_ERROR = -1, /* message in err; exit 2 */
    MC_ARGS_RUN = 0,    /* run rest[] */
    MC_ARGS_HELP = 1,   /* print mc_args_usage, exit 0 */
    MC_ARGS_VERSION = 2 /* print "mpicheck VERSION", exit 0 */
};

typedef struct {
    mc_config cfg;
    char **rest;    /* launcher args, PROGRAM, its args: points into argv */
    int nrest;
} mc_args;

/* Parses argv (argv[0] is mpicheck itself). getenv_fn/envp are the
 * environment (getenv and environ in production). out->cfg is initialised
 * here; release it with mc_config_clear even after an error. err gets a
 * message without the "mpicheck: " prefix. */
int mc_args_parse(int argc, char **argv, const char *(*getenv_fn)(const char *),
                  char *const *envp, mc_args *out, char *err, size_t errlen);

/* 1 when token is "--NAME" or "--NAME=..." for one of our value options
 * (used to warn about our options placed after the launcher arguments). */
int mc_args_is_ours(const char *token);

/* Optimal-string-alignment distance (a transposition counts 1) between the
 * first alen bytes of a and the string b. */
int mc_edit_distance(const char *a, size_t alen, const char *b);

/* The --help text. */
void mc_args_usage(FILE *out);

#endif
