/*
 * config.h - mpicheck's settings, parsed from command-line options (by the
 * launcher) and from MPICHECK_* environment variables (by the library when
 * it is preloaded by hand, and by the launcher as defaults). No MPI here.
 *
 * Every option has exactly one environment variable:
 *   --timeout=SECONDS        MPICHECK_TIMEOUT            float > 0, default 10
 *   --mode=strict|fast       MPICHECK_MODE               default strict
 *   --report=FILE            MPICHECK_REPORT             JSON for the whole job
 *   --sarif=FILE             MPICHECK_SARIF              SARIF 2.1.0
 *   --html=FILE              MPICHECK_HTML               one self-contained HTML page
 *   --mpi=openmpi|mpich      MPICHECK_MPI                default: detect
 *   --launcher=CMD           MPICHECK_LAUNCHER           default: matching mpirun
 *   --error-exitcode=N       MPICHECK_ERROR_EXITCODE     0..255, default 3
 *   --abort-on-deadlock=yes|no MPICHECK_ABORT_ON_DEADLOCK default yes
 *   --check-buffers=yes|no   MPICHECK_CHECK_BUFFERS      default yes
 *   --graph=FILE             MPICHECK_GRAPH              DOT file of a deadlock's wait-for graph
 *   --hang-timeout=S|off     MPICHECK_HANG_TIMEOUT       default 6 x --timeout
 *   --color=auto|always|never MPICHECK_COLOR             default auto (a terminal, no NO_COLOR)
 *   --verbose                MPICHECK_VERBOSE            every rank's block, not one per finding
 *   --checks=LIST            MPICHECK_CHECKS             all,-resource-leak (report/filter.h)
 *   --suppressions=FILE      MPICHECK_SUPPRESSIONS       several: the option again, or FILE:FILE
 *   --gen-suppressions       MPICHECK_GEN_SUPPRESSIONS   a ready entry after each finding
 * Internal (set by the launcher for the ranks; documented in docs/usage.md):
 *   MPICHECK_DIR             directory for the per-rank report parts
 */
#ifndef MPICHECK_CONFIG_H
#define MPICHECK_CONFIG_H

#include <stddef.h>

typedef enum { MC_MODE_STRICT = 0, MC_MODE_FAST = 1 } mc_mode;
typedef enum { MC_MPI_UNKNOWN = 0, MC_MPI_OPENMPI, MC_MPI_MPICH } mc_mpi_flavor;

typedef struct {
    double timeout_s;
    mc_mode mode;
    char *report_path;      /* NULL: none */
    char *sarif_path;       /* NULL: none */
    char *graph_path;       /* NULL: none */
    char *html_path;        /* NULL: none */
    double hang_timeout_s;  /* 0: the default (a multiple of timeout_s); < 0: off */
    mc_mpi_flavor mpi;      /* MC_MPI_UNKNOWN: detect */
    char *launcher;         /* NULL: the matching mpirun */
    int error_exitcode;
    int abort_on_deadlock;  /* 1 yes, 0 no */
    int check_buffers;      /* 1: buffer-modified checks (checksums of active send buffers) */
    char *dir;              /* MPICHECK_DIR; NULL when not under the launcher */
    int color;              /* -1 auto, 0 never, 1 always */
    int verbose;            /* 1: the launcher prints every rank's block */
    char *checks;           /* --checks as given; NULL: all */
    char *suppressions;     /* suppression files, ':'-separated; NULL: none */
    int suppressions_from_option;
    int gen_suppressions;
} mc_config;

/* Whether to color text on a stream: --color, or for auto, whether it is a
 * terminal and NO_COLOR (its value) is unset or empty. */
int mc_config_use_color(const mc_config *cfg, int is_tty, const char *no_color);

/* Fills cfg with the defaults (strings NULL). */
void mc_config_defaults(mc_config *cfg);

/* The seconds of no progress after which the launcher calls a job hung
 * (launcher/hang.c); 0: never. */
double mc_config_hang_timeout(const mc_config *cfg);

/* Frees the strings cfg owns and resets it to defaults. */
void mc_config_clear(mc_config *cfg);

/* Applies one option. name is the long name without dashes ("timeout"),
 * value its text. Returns 0, or -1 with a message naming the option, the bad
 * value and the accepted values written to err (errlen bytes). */
int mc_config_set(mc_config *cfg, const char *name, const char *value,
                  char *err, size_t errlen);

/* Applies every MPICHECK_* variable found through getenv_fn (getenv in
 * production, a fake in tests). An unknown MPICHECK_* name is an error too,
 * so a typo is never silently ignored; envp lists the environment to scan
 * for such names (NULL: skip that scan). Returns 0 or -1 with err filled. */
int mc_config_from_env(mc_config *cfg, const char *(*getenv_fn)(const char *),
                       char *const *envp, char *err, size_t errlen);

/* The environment variable name for an option name ("timeout" ->
 * "MPICHECK_TIMEOUT"); NULL for an unknown option. */
const char *mc_config_env_name(const char *option);

/* Strict parsers shared by options and environment (whole string must be
 * used; no trailing junk). Return 0 on success, -1 otherwise. */
int mc_parse_double(const char *s, double *out);
int mc_parse_int(const char *s, int *out);
int mc_parse_bool(const char *s, int *out);   /* yes/no/1/0/true/false/on/off */

const char *mc_mode_name(mc_mode m);
const char *mc_mpi_flavor_name(mc_mpi_flavor f);

#endif
