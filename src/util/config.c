/*
 * config.c - mpicheck's settings (see config.h for the contract).
 *
 * One table describes every setting; options (--timeout=...) and environment
 * variables (MPICHECK_TIMEOUT=...) go through the same validation so the two
 * can never disagree about what a value means. Messages are returned in err
 * without the "mpicheck: " prefix: the launcher and the library each add
 * their own prefix when they print.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX/GNU calls (strndup, realpath...) even under -std=c11 */
#endif
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MC_DEFAULT_TIMEOUT_S 10.0
#define MC_MAX_TIMEOUT_S 86400.0
#define MC_DEFAULT_ERROR_EXITCODE 3
/* --hang-timeout's default, in units of --timeout: past the deadlock
 * detector's own wait and its rounds, so a proven deadlock is reported as
 * such first; 60 s with the default --timeout, as Intel's checker waits. */
#define MC_HANG_TIMEOUT_FACTOR 6.0

typedef enum {
    K_TIMEOUT, K_MODE, K_REPORT, K_SARIF, K_HTML, K_MPI, K_LAUNCHER,
    K_ERROR_EXITCODE, K_ABORT_ON_DEADLOCK, K_CHECK_BUFFERS, K_GRAPH, K_HANG_TIMEOUT, K_COLOR, K_VERBOSE,
    K_CHECKS, K_SUPPRESSIONS, K_GEN_SUPPRESSIONS, K_DIR
} setting_kind;

/* The public options first (in the order --help lists them), then the
 * internal variables the launcher sets for the ranks. */
static const struct {
    const char *option;
    const char *env;
    setting_kind kind;
    const char *expected; /* tail of the error message */
} settings[] = {
    {"timeout", "MPICHECK_TIMEOUT", K_TIMEOUT,
     "expected a number of seconds > 0 and <= 86400 (e.g. 10 or 2.5)"},
    {"mode", "MPICHECK_MODE", K_MODE, "expected strict or fast"},
    {"report", "MPICHECK_REPORT", K_REPORT, "expected a file name"},
    {"sarif", "MPICHECK_SARIF", K_SARIF, "expected a file name"},
    {"html", "MPICHECK_HTML", K_HTML, "expected a file name"},
    {"mpi", "MPICHECK_MPI", K_MPI, "expected openmpi or mpich"},
    {"launcher", "MPICHECK_LAUNCHER", K_LAUNCHER,
     "expected a command (e.g. mpirun.openmpi or \"srun --mpi=pmix\")"},
    {"error-exitcode", "MPICHECK_ERROR_EXITCODE", K_ERROR_EXITCODE,
     "expected an integer from 0 to 255"},
    {"abort-on-deadlock", "MPICHECK_ABORT_ON_DEADLOCK", K_ABORT_ON_DEADLOCK,
     "expected yes or no (also true/false, 1/0, on/off)"},
    {"check-buffers", "MPICHECK_CHECK_BUFFERS", K_CHECK_BUFFERS,
     "expected yes or no (also true/false, 1/0, on/off)"},
    {"graph", "MPICHECK_GRAPH", K_GRAPH, "expected a file name"},
    {"hang-timeout", "MPICHECK_HANG_TIMEOUT", K_HANG_TIMEOUT,
     "expected a number of seconds > 0 and <= 86400, or off"},
    {"color", "MPICHECK_COLOR", K_COLOR, "expected auto, always or never (also yes/no, 1/0)"},
    {"verbose", "MPICHECK_VERBOSE", K_VERBOSE, "expected yes or no (also true/false, 1/0, on/off)"},
    {"checks", "MPICHECK_CHECKS", K_CHECKS, "expected a list such as all,-resource-leak"},
    {"suppressions", "MPICHECK_SUPPRESSIONS", K_SUPPRESSIONS, "expected a file name"},
    {"gen-suppressions", "MPICHECK_GEN_SUPPRESSIONS", K_GEN_SUPPRESSIONS,
     "expected yes or no (also true/false, 1/0, on/off)"},
    {"dir", "MPICHECK_DIR", K_DIR, "expected a directory name"},
};
#define NSETTINGS (sizeof settings / sizeof settings[0])

/* Names allowed in the environment although they are not settings: the
 * launcher/library's internal knobs and the keep-the-parts switch. */
static const char internal_prefix[] = "MPICHECK_INTERNAL_";
static const char *const extra_env_names[] = {"MPICHECK_KEEP_DIR"};

void mc_config_defaults(mc_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->timeout_s = MC_DEFAULT_TIMEOUT_S;
    cfg->mode = MC_MODE_STRICT;
    cfg->mpi = MC_MPI_UNKNOWN;
    cfg->error_exitcode = MC_DEFAULT_ERROR_EXITCODE;
    cfg->abort_on_deadlock = 1;
    cfg->check_buffers = 1;
    cfg->color = -1;        /* auto */
}

double mc_config_hang_timeout(const mc_config *cfg)
{
    if (cfg->hang_timeout_s < 0)
        return 0.0;
    return cfg->hang_timeout_s > 0 ? cfg->hang_timeout_s : MC_HANG_TIMEOUT_FACTOR * cfg->timeout_s;
}

void mc_config_clear(mc_config *cfg)
{
    free(cfg->report_path);
    free(cfg->sarif_path);
    free(cfg->graph_path);
    free(cfg->html_path);
    free(cfg->launcher);
    free(cfg->dir);
    free(cfg->checks);
    free(cfg->suppressions);
    mc_config_defaults(cfg);
}

/* strtod alone would accept " 10", "inf", "nan", "0x1p3" and "10s" (with
 * endptr checks only the last); a timeout is written in plain decimal, so
 * anything outside the decimal alphabet is refused before strtod sees it. */
int mc_parse_double(const char *s, double *out)
{
    if (s == NULL || *s == '\0')
        return -1;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789.eE+-", *p))
            return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int mc_parse_int(const char *s, int *out)
{
    if (s == NULL || *s == '\0')
        return -1;
    /* strtol skips leading white space; a setting must be exact. */
    if (!(isdigit((unsigned char)s[0]) || s[0] == '-' || s[0] == '+'))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

int mc_config_use_color(const mc_config *cfg, int is_tty, const char *no_color)
{
    if (cfg->color >= 0)
        return cfg->color;
    return is_tty && !(no_color && *no_color);   /* https://no-color.org */
}

int mc_parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"yes", "true", "1", "on"};
    static const char *const no[] = {"no", "false", "0", "off"};
    if (s == NULL)
        return -1;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcasecmp(s, yes[i]) == 0) { *out = 1; return 0; }
        if (strcasecmp(s, no[i]) == 0) { *out = 0; return 0; }
    }
    return -1;
}

const char *mc_mode_name(mc_mode m)
{
    switch (m) {
    case MC_MODE_STRICT: return "strict";
    case MC_MODE_FAST: return "fast";
    }
    return "unknown";
}

const char *mc_mpi_flavor_name(mc_mpi_flavor f)
{
    switch (f) {
    case MC_MPI_OPENMPI: return "openmpi";
    case MC_MPI_MPICH: return "mpich";
    case MC_MPI_UNKNOWN: break;
    }
    return "unknown";
}

static int find_setting(const char *option)
{
    if (option == NULL)
        return -1;
    for (size_t i = 0; i < NSETTINGS; i++)
        if (strcmp(settings[i].option, option) == 0)
            return (int)i;
    return -1;
}

const char *mc_config_env_name(const char *option)
{
    int i = find_setting(option);
    return i < 0 ? NULL : settings[i].env;
}

static int set_string(char **slot, const char *value)
{
    char *copy = strdup(value);
    if (copy == NULL)
        return -1;
    free(*slot);
    *slot = copy;
    return 0;
}

/* Validates and stores one value. where is "for --timeout" or
 * "in MPICHECK_TIMEOUT", so both sources name what the user must fix. */
static int apply(mc_config *cfg, int idx, const char *value, const char *where,
                 char *err, size_t errlen)
{
    double d;
    int n;
    int ok = 0;

    if (value == NULL)
        value = "";
    switch (settings[idx].kind) {
    case K_TIMEOUT:
        ok = mc_parse_double(value, &d) == 0 && d > 0.0 && d <= MC_MAX_TIMEOUT_S;
        if (ok)
            cfg->timeout_s = d;
        break;
    case K_HANG_TIMEOUT:
        if (strcmp(value, "off") == 0) {
            cfg->hang_timeout_s = -1.0;
            ok = 1;
            break;
        }
        ok = mc_parse_double(value, &d) == 0 && d > 0.0 && d <= MC_MAX_TIMEOUT_S;
        if (ok)
            cfg->hang_timeout_s = d;
        break;
    case K_MODE:
        if (strcmp(value, "strict") == 0) { cfg->mode = MC_MODE_STRICT; ok = 1; }
        else if (strcmp(value, "fast") == 0) { cfg->mode = MC_MODE_FAST; ok = 1; }
        break;
    case K_MPI:
        if (strcmp(value, "openmpi") == 0) { cfg->mpi = MC_MPI_OPENMPI; ok = 1; }
        else if (strcmp(value, "mpich") == 0) { cfg->mpi = MC_MPI_MPICH; ok = 1; }
        break;
    case K_ERROR_EXITCODE:
        ok = mc_parse_int(value, &n) == 0 && n >= 0 && n <= 255;
        if (ok)
            cfg->error_exitcode = n;
        break;
    case K_ABORT_ON_DEADLOCK:
        ok = mc_parse_bool(value, &n) == 0;
        if (ok)
            cfg->abort_on_deadlock = n;
        break;
    case K_CHECK_BUFFERS:
        ok = mc_parse_bool(value, &n) == 0;
        if (ok)
            cfg->check_buffers = n;
        break;
    case K_COLOR:
        if (strcmp(value, "auto") == 0) { cfg->color = -1; ok = 1; }
        else if (strcmp(value, "always") == 0) { cfg->color = 1; ok = 1; }
        else if (strcmp(value, "never") == 0) { cfg->color = 0; ok = 1; }
        else if (mc_parse_bool(value, &n) == 0) { cfg->color = n; ok = 1; }
        break;
    case K_VERBOSE:
    case K_GEN_SUPPRESSIONS:
        ok = mc_parse_bool(value, &n) == 0;
        if (ok && settings[idx].kind == K_VERBOSE)
            cfg->verbose = n;
        else if (ok)
            cfg->gen_suppressions = n;
        break;
    case K_CHECKS:
        /* The names are checked where the classes are known (report/filter.c). */
        if (*value != '\0' && set_string(&cfg->checks, value) != 0) {
            snprintf(err, errlen, "out of memory while setting a value %s", where);
            return -1;
        }
        ok = *value != '\0';
        break;
    case K_SUPPRESSIONS: {
        /* Several files: ':'-separated in the variable, one per option
         * (the first option replaces the variable's list). */
        if (*value == '\0' || (strchr(value, ':') && strncmp(where, "for", 3) == 0))
            break;
        int first_option = strncmp(where, "for", 3) == 0 && !cfg->suppressions_from_option;
        size_t n = (first_option || !cfg->suppressions ? 0 : strlen(cfg->suppressions) + 1) + strlen(value) + 1;
        char *list = malloc(n);
        if (!list) {
            snprintf(err, errlen, "out of memory while setting a value %s", where);
            return -1;
        }
        if (first_option || !cfg->suppressions)
            snprintf(list, n, "%s", value);
        else
            snprintf(list, n, "%s:%s", cfg->suppressions, value);
        free(cfg->suppressions);
        cfg->suppressions = list;
        cfg->suppressions_from_option |= strncmp(where, "for", 3) == 0;
        ok = 1;
        break;
    }
    case K_REPORT:
    case K_SARIF:
    case K_HTML:
    case K_GRAPH:
    case K_LAUNCHER:
    case K_DIR: {
        char **slot = settings[idx].kind == K_REPORT ? &cfg->report_path
                    : settings[idx].kind == K_SARIF ? &cfg->sarif_path
                    : settings[idx].kind == K_HTML ? &cfg->html_path
                    : settings[idx].kind == K_GRAPH ? &cfg->graph_path
                    : settings[idx].kind == K_LAUNCHER ? &cfg->launcher
                    : &cfg->dir;
        if (*value == '\0')
            break;
        if (set_string(slot, value) != 0) {
            snprintf(err, errlen, "out of memory while setting a value %s", where);
            return -1;
        }
        ok = 1;
        break;
    }
    }
    if (ok)
        return 0;
    snprintf(err, errlen, "invalid value '%s' %s: %s", value, where,
             settings[idx].expected);
    return -1;
}

int mc_config_set(mc_config *cfg, const char *name, const char *value,
                  char *err, size_t errlen)
{
    int idx = find_setting(name);
    if (idx < 0) {
        snprintf(err, errlen, "unknown option '--%s'", name ? name : "");
        return -1;
    }
    char where[64];
    snprintf(where, sizeof where, "for --%s", settings[idx].option);
    return apply(cfg, idx, value, where, err, errlen);
}

static int env_name_known(const char *name, size_t len)
{
    for (size_t i = 0; i < NSETTINGS; i++)
        if (strlen(settings[i].env) == len && strncmp(settings[i].env, name, len) == 0)
            return 1;
    for (size_t i = 0; i < sizeof extra_env_names / sizeof extra_env_names[0]; i++)
        if (strlen(extra_env_names[i]) == len && strncmp(extra_env_names[i], name, len) == 0)
            return 1;
    return len >= sizeof internal_prefix - 1 &&
           strncmp(name, internal_prefix, sizeof internal_prefix - 1) == 0;
}

/* "unknown environment variable X (known: A, B, ...)": the full list, so a
 * typo can be fixed without opening the documentation. */
static void unknown_env_message(const char *name, size_t len, char *err, size_t errlen)
{
    size_t off = 0;
    int w = snprintf(err, errlen, "unknown environment variable %.*s (known: ",
                     (int)len, name);
    if (w < 0)
        return;
    off = (size_t)w;
    for (size_t i = 0; i < NSETTINGS && off < errlen; i++) {
        w = snprintf(err + off, errlen - off, "%s, ", settings[i].env);
        if (w < 0)
            return;
        off += (size_t)w;
    }
    if (off < errlen)
        snprintf(err + off, errlen - off, "MPICHECK_KEEP_DIR, %s*)", internal_prefix);
}

int mc_config_from_env(mc_config *cfg, const char *(*getenv_fn)(const char *),
                       char *const *envp, char *err, size_t errlen)
{
    static const char prefix[] = "MPICHECK_";

    /* Unknown names first: a misspelt variable explains more than a
     * value error in some other variable would. */
    for (char *const *e = envp; e != NULL && *e != NULL; e++) {
        if (strncmp(*e, prefix, sizeof prefix - 1) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
        if (!env_name_known(*e, len)) {
            unknown_env_message(*e, len, err, errlen);
            return -1;
        }
    }
    if (getenv_fn == NULL)
        return 0;
    for (size_t i = 0; i < NSETTINGS; i++) {
        const char *v = getenv_fn(settings[i].env);
        if (v == NULL || *v == '\0') /* empty counts as unset */
            continue;
        char where[64];
        snprintf(where, sizeof where, "in %s", settings[i].env);
        if (apply(cfg, (int)i, v, where, err, errlen) != 0)
            return -1;
    }
    return 0;
}
