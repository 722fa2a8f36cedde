/*
 * args.c - splitting mpicheck's command line into our options and the
 * launcher's arguments (see args.h).
 *
 * Our options must come first: mpirun has hundreds of options of its own
 * (some, like --timeout, with the same names), so the first token that is
 * not ours hands everything from there on to the launcher unchanged. The one
 * exception is a near-miss of one of our names (--timout=3): passing that
 * on would make mpirun fail with a confusing message, or worse, accept it,
 * so it is reported as a typo instead.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX/GNU calls (strndup, realpath...) even under -std=c11 */
#endif
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Our value-taking options, in --help order. */
static const char *const value_opts[] = {
    "timeout", "mode", "report", "sarif", "html", "mpi", "launcher",
    "error-exitcode", "abort-on-deadlock", "check-buffers", "graph", "hang-timeout",
    "color", "verbose", "checks", "suppressions", "gen-suppressions",
};
#define NVALUE_OPTS (sizeof value_opts / sizeof value_opts[0])

/* Names also checked for typos (they take no value). */
static const char *const flag_opts[] = {"help", "version"};
#define NFLAG_OPTS (sizeof flag_opts / sizeof flag_opts[0])

/* Long options of Open MPI's mpirun / MPICH's mpiexec that are close to one
 * of our names: never reported as typos. Hydra's single-dash options never
 * reach the typo check (it looks at "--" tokens only). */
static const char *const launcher_long_opts[] = {
    "app", "hnp", "mca", "gmca", "np", "n", "ppr", "ppn", "host", "hosts",
    "path", "wd", "wdir", "xml", "tv", "map-by", "bind-to", "rank-by",
};

int mc_edit_distance(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    /* Names are short; anything long is certainly not a near-miss. */
    if (alen > 64 || blen > 64)
        return 99;
    int d[65][65];
    for (size_t i = 0; i <= alen; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= blen; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= alen; i++) {
        for (size_t j = 1; j <= blen; j++) {
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[alen][blen];
}

static int value_opt_index(const char *name, size_t len)
{
    for (size_t i = 0; i < NVALUE_OPTS; i++)
        if (strlen(value_opts[i]) == len && strncmp(value_opts[i], name, len) == 0)
            return (int)i;
    return -1;
}

int mc_args_is_ours(const char *token)
{
    if (strncmp(token, "--", 2) != 0)
        return 0;
    const char *name = token + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    return value_opt_index(name, len) >= 0;
}

/* Returns the option a "--name" near-miss was meant to be, or NULL. Short
 * names (mpi, mode, help) allow only one edit: with two, real launcher
 * options such as --mca, --np or srun's --mem would look like typos of --mpi. */
static const char *near_miss(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof launcher_long_opts / sizeof launcher_long_opts[0]; i++)
        if (strlen(launcher_long_opts[i]) == len &&
            strncmp(launcher_long_opts[i], name, len) == 0)
            return NULL;
    const char *best = NULL;
    int best_d = 99;
    for (size_t i = 0; i < NVALUE_OPTS + NFLAG_OPTS; i++) {
        const char *cand = i < NVALUE_OPTS ? value_opts[i] : flag_opts[i - NVALUE_OPTS];
        int limit = strlen(cand) <= 4 ? 1 : 2;
        int d = mc_edit_distance(name, len, cand);
        if (d <= limit && d < best_d) {
            best = cand;
            best_d = d;
        }
    }
    return best;
}

static int is_flag(const char *tok, const char *name)
{
    return strncmp(tok, "--", 2) == 0 && strcmp(tok + 2, name) == 0;
}

int mc_args_parse(int argc, char **argv, const char *(*getenv_fn)(const char *),
                  char *const *envp, mc_args *out, char *err, size_t errlen)
{
    char env_err[1024] = "";
    int i;

    mc_config_defaults(&out->cfg);
    out->rest = NULL;
    out->nrest = 0;
    /* An environment error is remembered, not returned at once, so that
     * --help and --version still work in a broken environment. */
    int env_bad = mc_config_from_env(&out->cfg, getenv_fn, envp, env_err,
                                      sizeof env_err) != 0;

    for (i = 1; i < argc; i++) {
        const char *tok = argv[i];
        if (strcmp(tok, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(tok, "-h") == 0 || is_flag(tok, "help"))
            return MC_ARGS_HELP;
        if (is_flag(tok, "version"))
            return MC_ARGS_VERSION;
        if (strncmp(tok, "--", 2) != 0)
            break; /* first launcher argument (or PROGRAM) */
        const char *name = tok + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        if ((len == 4 && strncmp(name, "help", 4) == 0) ||
            (len == 7 && strncmp(name, "version", 7) == 0)) {
            snprintf(err, errlen, "option --%.*s takes no value", (int)len, name);
            return MC_ARGS_ERROR;
        }
        /* --verbose alone means yes (the next word is the program's). */
        if (is_flag(tok, "verbose")) {
            out->cfg.verbose = 1;
            continue;
        }
        if (is_flag(tok, "gen-suppressions")) {
            out->cfg.gen_suppressions = 1;
            continue;
        }
        int idx = value_opt_index(name, len);
        if (idx < 0) {
            const char *meant = near_miss(name, len);
            if (meant != NULL) {
                snprintf(err, errlen, "unknown option '%s' (did you mean --%s?)",
                         tok, meant);
                return MC_ARGS_ERROR;
            }
            break; /* a launcher option such as --oversubscribe */
        }
        const char *value;
        if (eq != NULL) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            snprintf(err, errlen, "option --%s needs a value (--%s=VALUE)",
                     value_opts[idx], value_opts[idx]);
            return MC_ARGS_ERROR;
        }
        if (mc_config_set(&out->cfg, value_opts[idx], value, err, errlen) != 0)
            return MC_ARGS_ERROR;
    }

    if (env_bad) {
        snprintf(err, errlen, "%s", env_err);
        return MC_ARGS_ERROR;
    }
    if (i >= argc) {
        snprintf(err, errlen, "no PROGRAM given\n"
                 "usage: mpicheck [OPTIONS] [--] [LAUNCHER-ARGS...] PROGRAM [ARGS...]\n"
                 "       (mpicheck --help for the options)");
        return MC_ARGS_ERROR;
    }
    out->rest = argv + i;
    out->nrest = argc - i;
    return MC_ARGS_RUN;
}

void mc_args_usage(FILE *out)
{
    fputs(
"usage: mpicheck [OPTIONS] [--] [LAUNCHER-ARGS...] PROGRAM [ARGS...]\n"
"\n"
"Runs an MPI program under the matching mpirun with the mpicheck checker\n"
"preloaded into every rank, and reports MPI usage errors.\n"
"\n"
"  mpicheck -np 4 ./app\n"
"  mpicheck --timeout=3 --report=r.json -- -np 2 --oversubscribe ./app x y\n"
"\n"
"Options (before the launcher arguments; each also has an environment\n"
"variable, which the option overrides; --NAME VALUE works too):\n"
"  --timeout=SECONDS         MPICHECK_TIMEOUT            default 10\n"
"      seconds a blocked call (point-to-point, collective, MPI_Finalize) waits before\n"
"      deadlock detection starts (0 < s <= 86400); only proven deadlocks are reported\n"
"  --mode=strict|fast        MPICHECK_MODE               default strict\n"
"      strict: sends wait for a matching receive (finds potential deadlocks);\n"
"      fast: they do not (cheaper; no potential-deadlock findings)\n"
"  --report=FILE             MPICHECK_REPORT             default: none\n"
"      write the job's findings as JSON to FILE (- for stdout)\n"
"  --sarif=FILE              MPICHECK_SARIF              default: none\n"
"      write the findings as SARIF 2.1.0 to FILE\n"
"  --html=FILE               MPICHECK_HTML               default: none\n"
"      write the findings as one self-contained HTML page to FILE\n"
"  --mpi=openmpi|mpich       MPICHECK_MPI                default: detect\n"
"      which MPI PROGRAM uses (detected from the libraries it links)\n"
"  --launcher=CMD            MPICHECK_LAUNCHER           default: matching mpirun\n"
"      launcher command, split on spaces (e.g. \"srun --mpi=pmix\")\n"
"  --error-exitcode=N        MPICHECK_ERROR_EXITCODE     default 3\n"
"      exit status when errors were found (0..255)\n"
"  --abort-on-deadlock=yes|no MPICHECK_ABORT_ON_DEADLOCK default yes\n"
"      end the job after reporting a deadlock, or a collective mismatch MPI cannot\n"
"      survive; no: leave it to MPI\n"
"  --check-buffers=yes|no    MPICHECK_CHECK_BUFFERS      default yes\n"
"      checksum the buffer of every active send: report it when it changes before\n"
"      the send completes (buffer-modified)\n"
"  --graph=FILE              MPICHECK_GRAPH              default: none\n"
"      write a deadlock's wait-for graph to FILE (Graphviz DOT), and FILE.svg when\n"
"      graphviz's dot is installed\n"
"  --hang-timeout=S|off      MPICHECK_HANG_TIMEOUT       default 6 x --timeout\n"
"      when every rank has been inside an MPI call (or has ended) for S seconds with\n"
"      no progress, report each rank's call and stack as a hang and end the job\n"
"      (unless --abort-on-deadlock=no); off: never\n"
"  --color=auto|always|never MPICHECK_COLOR              default auto\n"
"      color the findings on the terminal; auto: when stderr is a terminal and\n"
"      NO_COLOR is not set\n"
"  --verbose                 MPICHECK_VERBOSE            default no\n"
"      print every rank's report of a finding, not one block per finding with\n"
"      the ranks that reported it\n"
"  --checks=LIST             MPICHECK_CHECKS             default all\n"
"      the checks to report, left to right from all: all, none, NAME, -NAME\n"
"      (e.g. all,-resource-leak,-lost-message; docs/checks.md lists the names)\n"
"  --suppressions=FILE       MPICHECK_SUPPRESSIONS       default: none\n"
"      findings to ignore, in valgrind's style (docs/usage.md); give it again for\n"
"      more files (FILE:FILE in the variable); suppressed findings are counted\n"
"      and listed in the reports with suppressed: true\n"
"  --gen-suppressions        MPICHECK_GEN_SUPPRESSIONS   default no\n"
"      print a suppression entry after each finding\n"
"  -h, --help                this text\n"
"  --version                 print the version\n"
"  --                        end of mpicheck's options\n"
"\n"
"Other environment: MPICHECK_KEEP_DIR=1 keeps the per-rank report parts.\n"
"\n"
"Exit status:\n"
"  0     no errors found and the job succeeded\n"
"  N     the --error-exitcode (default 3) when errors were found\n"
"  2     mpicheck could not run the job (bad option, no program, no checker\n"
"        library), or no rank reached MPI_Init and the job itself exited 0\n"
"  other the job's own exit status (128+SIGNAL when killed by a signal)\n",
        out);
}
