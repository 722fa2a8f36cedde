/*
 * main.c - the mpicheck launcher: parse the command line, find PROGRAM and
 * its MPI, run the job under the matching mpirun with the checker library
 * preloaded into the ranks, then merge the per-rank report parts, print a
 * one-line summary and write the JSON/SARIF reports.
 *
 * No MPI is linked here: one launcher serves both Open MPI and MPICH
 * programs, choosing the matching checker library at run time.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX/GNU calls (strndup, realpath...) even under -std=c11 */
#endif
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "collect.h"
#include "command.h"
#include "config.h"
#include "detect.h"
#include "filter.h"
#include "hang.h"
#include "live.h"
#include "run.h"
#include "slurm.h"
#include "vanished.h"
#include "writers.h"


/* getenv returns char *; the config API wants const char *(*)(const char *). */
static const char *env_get(const char *name)
{
    return getenv(name);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    if (remove(path) != 0 && errno != ENOENT)
        fprintf(stderr, "mpicheck: warning: cannot remove %s: %s\n", path, strerror(errno));
    return 0;
}

/* A private directory for the per-rank parts: mkdtemp makes it 0700, and
 * it must be absolute because ranks may run in another working directory. */
static char *make_part_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    char templ[PATH_MAX];
    snprintf(templ, sizeof templ, "%s/mpicheck.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(templ) == NULL) {
        fprintf(stderr, "mpicheck: cannot create a directory like %s: %s\n", templ,
                strerror(errno));
        return NULL;
    }
    char *abs = realpath(templ, NULL);
    return abs ? abs : strdup(templ);
}

static const char *plural(int n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void print_summary(const mc_report_doc *doc, const mc_config *cfg,
                          int errors, int warnings)
{
    char counts[128], ranks[64], files[2 * PATH_MAX + 32] = "";
    if (errors == 0 && warnings == 0)
        snprintf(counts, sizeof counts, "no errors found");
    else if (errors == 0)
        snprintf(counts, sizeof counts, "no errors, %d %s", warnings,
                 plural(warnings, "warning", "warnings"));
    else
        snprintf(counts, sizeof counts, "%d %s, %d %s", errors,
                 plural(errors, "error", "errors"), warnings,
                 plural(warnings, "warning", "warnings"));
    if (doc->job.nprocs >= 0)
        snprintf(ranks, sizeof ranks, "in %d %s", doc->job.nprocs,
                 plural(doc->job.nprocs, "rank", "ranks"));
    else
        snprintf(ranks, sizeof ranks, "(number of ranks unknown)");
    if (cfg->report_path || cfg->sarif_path || cfg->html_path) {
        const char *r = cfg->report_path && strcmp(cfg->report_path, "-") == 0
                            ? "stdout" : cfg->report_path;
        snprintf(files, sizeof files, " (%s%s%s%s%s%s%s)", r ? "report: " : "", r ? r : "",
                 r && cfg->sarif_path ? ", " : "", cfg->sarif_path ? "sarif: " : "",
                 cfg->sarif_path ? cfg->sarif_path : "",
                 cfg->html_path ? (r || cfg->sarif_path ? ", html: " : "html: ") : "",
                 cfg->html_path ? cfg->html_path : "");
    }
    int suppressed = mc_report_suppressed(doc);
    char supp[64] = "";
    if (suppressed)
        snprintf(supp, sizeof supp, ", %d suppressed", suppressed);
    fprintf(stderr, "mpicheck: %s%s %s%s\n", counts, supp, ranks, files);
    if (doc->repeats > 0)
        fprintf(stderr, "mpicheck: %ld more %s of the findings above %s not reported again "
                "(same check, same call site)\n", doc->repeats,
                doc->repeats == 1 ? "occurrence" : "occurrences", doc->repeats == 1 ? "was" : "were");
    if (doc->checks_off && doc->checks_off[0])
        fprintf(stderr, "mpicheck: checks switched off (--checks): %s\n", doc->checks_off);
    char skipped[2048];
    mc_report_skipped_line(doc, skipped, sizeof skipped);
    if (skipped[0])
        fprintf(stderr, "%s\n", skipped);
    if (doc->job.nprocs > 0 && doc->ndone < (size_t)doc->job.nprocs)
        fprintf(stderr, "mpicheck: %d of %d ranks did not reach the end of MPI_Finalize's "
                "checks (crashed, killed, or exited without MPI_Finalize): leaks were not "
                "checked there\n", doc->job.nprocs - (int)doc->ndone, doc->job.nprocs);
}

/* graphviz's dot: the DOT file in as SVG to out. 0, or -1 when dot is not
 * installed or fails (its messages are not shown). */
static int run_dot(const char *in, const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            dup2(devnull, STDERR_FILENO);
        execlp("dot", "dot", "-Tsvg", in, "-o", out, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* --graph=FILE: the deadlock's wait-for graph, which the reporting rank left
 * in the part directory, goes to FILE, and FILE.svg when dot is there. */
static int copy_graph(const char *dir, const char *to)
{
    char from[PATH_MAX + 32];
    snprintf(from, sizeof from, "%s/deadlock.dot", dir);
    FILE *in = fopen(from, "r");
    if (!in) {
        fprintf(stderr, "mpicheck: no deadlock was found: no graph written to %s\n", to);
        return 0;
    }
    FILE *out = fopen(to, "w");
    if (!out) {
        fprintf(stderr, "mpicheck: cannot write the graph %s: %s\n", to, strerror(errno));
        fclose(in);
        return -1;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    if (fclose(out) != 0) {
        fprintf(stderr, "mpicheck: cannot write the graph %s: %s\n", to, strerror(errno));
        return -1;
    }
    char svg[PATH_MAX + 8];
    snprintf(svg, sizeof svg, "%s.svg", to);
    if (run_dot(to, svg) == 0)
        fprintf(stderr, "mpicheck: deadlock graph: %s (and %s)\n", to, svg);
    else
        fprintf(stderr, "mpicheck: deadlock graph: %s (install graphviz for an SVG)\n", to);
    return 0;
}

/* --checks and --suppressions, read once here (a bad one stops before the
 * job runs); the suppression files become absolute paths, which the ranks
 * read in their own working directories. */
static mc_filter *make_filter(mc_config *cfg)
{
    char err[4096];
    mc_filter *f = mc_filter_new();
    if (!f) {
        fprintf(stderr, "mpicheck: out of memory\n");
        return NULL;
    }
    if (cfg->checks && mc_filter_set_checks(f, cfg->checks, err, sizeof err) != 0) {
        fprintf(stderr, "mpicheck: %s\n", err);
        mc_filter_free(f);
        return NULL;
    }
    if (!cfg->suppressions)
        return f;
    if (mc_filter_load(f, cfg->suppressions, err, sizeof err) != 0) {
        fprintf(stderr, "mpicheck: %s\n", err);
        mc_filter_free(f);
        return NULL;
    }
    char *list = NULL, *save = NULL, *copy = strdup(cfg->suppressions);
    size_t len = 0;
    FILE *m = copy ? open_memstream(&list, &len) : NULL;
    for (char *p = m ? strtok_r(copy, ":", &save) : NULL; p; p = strtok_r(NULL, ":", &save)) {
        char *abs = realpath(p, NULL);
        fprintf(m, "%s%s", len || ftell(m) ? ":" : "", abs ? abs : p);
        free(abs);
    }
    free(copy);
    if (m && fclose(m) == 0 && list && *list) {
        free(cfg->suppressions);
        cfg->suppressions = list;
    } else {
        free(list);
    }
    return f;
}

/* Marks what a suppression matches (the ranks marked theirs already; the
 * launcher's own findings, hangs, are marked here) and drops the findings
 * of checks switched off. */
static void apply_filter(mc_report_doc *doc, const mc_filter *f)
{
    size_t k = 0;
    for (size_t i = 0; i < doc->nfindings; i++) {
        mc_finding *x = &doc->findings[i];
        if (!mc_filter_check_on(f, x->cls)) {
            mc_finding_clear(x);
            continue;
        }
        const char *name = x->suppressed ? NULL : mc_filter_match(f, x);
        if (name)
            x->suppressed = strdup(name);
        doc->findings[k++] = *x;
    }
    doc->nfindings = k;
}

/* The deadlock's wait-for graph the reporting rank left in dir, as SVG
 * from graphviz's dot (its <svg> element only, to go inline in a page);
 * NULL when there is no graph or no dot. */
static char *graph_svg(const char *dir)
{
    char dot[PATH_MAX + 32], svg[PATH_MAX + 32];
    snprintf(dot, sizeof dot, "%s/deadlock.dot", dir);
    snprintf(svg, sizeof svg, "%s/deadlock.svg", dir);
    if (access(dot, R_OK) != 0 || run_dot(dot, svg) != 0)
        return NULL;
    FILE *in = fopen(svg, "r");
    char *text = NULL;
    size_t len = 0;
    if (in) {
        FILE *m = open_memstream(&text, &len);
        char buf[4096];
        size_t n;
        while (m && (n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, m);
        if (m)
            fclose(m);
        fclose(in);
    }
    char *start = text ? strstr(text, "<svg") : NULL;
    if (!start) {
        free(text);
        return NULL;
    }
    memmove(text, start, strlen(start) + 1);
    return text;
}

/* Merges the parts, reports, and computes the exit code. */
static int finish(const char *dir, const mc_config *cfg, const mc_filter *filter, int job_code)
{
    mc_report_doc doc;
    char checks_off[1024];
    memset(&doc, 0, sizeof doc);
    if (mc_report_merge_dir(dir, &doc) != 0) {
        fprintf(stderr, "mpicheck: cannot read the report parts in %s: %s\n", dir,
                strerror(errno));
        mc_report_doc_clear(&doc);
        return job_code ? job_code : 2;
    }
    apply_filter(&doc, filter);
    mc_filter_checks_off_text(filter, checks_off, sizeof checks_off);
    doc.checks_off = checks_off;
    int errors = 0, warnings = 0, write_failed = 0;
    mc_report_count(&doc, &errors, &warnings);
    if (cfg->report_path &&
        mc_report_write_json(cfg->report_path, &doc, PACKAGE_VERSION) != 0) {
        fprintf(stderr, "mpicheck: cannot write the report %s: %s\n", cfg->report_path,
                strerror(errno));
        write_failed = 1;
    }
    if (cfg->html_path) {
        char *svg = graph_svg(dir);
        if (mc_report_write_html(cfg->html_path, &doc, PACKAGE_VERSION, svg) != 0) {
            fprintf(stderr, "mpicheck: cannot write the HTML report %s: %s\n", cfg->html_path,
                    strerror(errno));
            write_failed = 1;
        }
        free(svg);
    }
    if (cfg->sarif_path &&
        mc_report_write_sarif(cfg->sarif_path, &doc, PACKAGE_VERSION) != 0) {
        fprintf(stderr, "mpicheck: cannot write the SARIF log %s: %s\n", cfg->sarif_path,
                strerror(errno));
        write_failed = 1;
    }

    int code;
    if (!doc.saw_job_line && doc.nfindings == 0) {
        fprintf(stderr, "mpicheck: no rank reached MPI_Init under the checker: nothing "
                "was checked (is PROGRAM an MPI program, and did the launcher start it?)\n");
        code = job_code ? job_code : 2;
    } else {
        print_summary(&doc, cfg, errors, warnings);
        /* Like valgrind, --error-exitcode=0 means: keep the job's own status. */
        code = errors > 0 && cfg->error_exitcode != 0 ? cfg->error_exitcode : job_code;
    }
    if (cfg->graph_path && copy_graph(dir, cfg->graph_path) != 0)
        write_failed = 1;
    if (code == 0 && write_failed)
        code = 2;
    mc_report_doc_clear(&doc);
    return code;
}

static void warn_misplaced_options(char *const *args, int n)
{
    for (int i = 0; i < n; i++)
        if (mc_args_is_ours(args[i]))
            fprintf(stderr, "mpicheck: warning: '%s' comes after the launcher arguments, "
                    "so it is passed to the launcher; put mpicheck's options first\n",
                    args[i]);
}

/* Everything up to the job; returns an exit code, or -1 to go on to run. */
static int prepare(mc_args *a, char ***words, char **lib, mc_mpi_flavor *flavor)
{
    char err[4096];
    const char *path_env = getenv("PATH");
    const char *wdir = NULL;

    int pi = mc_find_program(a->nrest, a->rest, &wdir);
    if (pi < 0) {
        fprintf(stderr, "mpicheck: no PROGRAM given after the launcher arguments\n"
                "usage: mpicheck [OPTIONS] [--] [LAUNCHER-ARGS...] PROGRAM [ARGS...]\n");
        return 2;
    }
    warn_misplaced_options(a->rest, pi);
    char *prog = mc_resolve_program(a->rest[pi], wdir, path_env, err, sizeof err);
    if (prog == NULL) {
        fprintf(stderr, "mpicheck: %s\n", err);
        return 2;
    }
    if (a->cfg.launcher != NULL && (mc_split_words(a->cfg.launcher, words) <= 0)) {
        fprintf(stderr, "mpicheck: invalid value '%s' for --launcher: expected a command\n",
                a->cfg.launcher);
        free(prog);
        return 2;
    }
    int rc = mc_detect_flavor(prog, a->rest[pi], a->cfg.mpi, *words ? (*words)[0] : NULL,
                              path_env, flavor, err, sizeof err);
    free(prog);
    if (rc != 0) {
        fprintf(stderr, "mpicheck: %s\n", err);
        return 2;
    }
    char *self = realpath("/proc/self/exe", NULL);
    char *found = mc_find_library(*flavor, self, env_get, err, sizeof err);
    free(self);
    if (found == NULL) {
        fprintf(stderr, "mpicheck: %s\n", err);
        return 2;
    }
    /* LD_PRELOAD is resolved in each rank's working directory. */
    *lib = realpath(found, NULL);
    if (*lib == NULL)
        *lib = found;
    else
        free(found);
    if (*words == NULL) {
        /* Inside a Slurm allocation: srun, when it can start this MPI. */
        char note[512];
        char *srun = mc_slurm_launcher(*flavor, path_env, note, sizeof note);
        if (note[0])
            fprintf(stderr, "mpicheck: %s\n", note);
        const char *name = srun ? srun : mc_default_launcher(*flavor, path_env, err, sizeof err);
        int nwords = name ? mc_split_words(name, words) : 0;
        free(srun);
        if (nwords <= 0) {
            fprintf(stderr, "mpicheck: %s\n", name ? "out of memory" : err);
            return 2;
        }
    }
    const char *base = strrchr((*words)[0], '/');
    if (strcmp(base ? base + 1 : (*words)[0], "srun") == 0)
        mc_slurm_args(a->rest, pi);     /* mpirun's -np is srun's -n */
    return -1;
}

int main(int argc, char **argv)
{
    char err[4096];
    mc_args a;
    char **words = NULL, *lib = NULL, *dir = NULL;
    mc_mpi_flavor flavor = MC_MPI_UNKNOWN;
    mc_filter *filter = NULL;
    int code;

    switch (mc_args_parse(argc, argv, env_get, environ, &a, err, sizeof err)) {
    case MC_ARGS_HELP:
        mc_args_usage(stdout);
        mc_config_clear(&a.cfg);
        return 0;
    case MC_ARGS_VERSION:
        printf("mpicheck %s\n", PACKAGE_VERSION);
        mc_config_clear(&a.cfg);
        return 0;
    case MC_ARGS_ERROR:
        fprintf(stderr, "mpicheck: %s\n", err);
        mc_config_clear(&a.cfg);
        return 2;
    default:
        break;
    }

    code = prepare(&a, &words, &lib, &flavor);
    if (code >= 0)
        goto out;
    code = 2;
    if ((filter = make_filter(&a.cfg)) == NULL)
        goto out;

    mc_mpi_flavor kind = mc_launcher_flavor(words[0], getenv("PATH"));
    if (kind != MC_MPI_UNKNOWN && kind != flavor)
        fprintf(stderr, "mpicheck: warning: the launcher '%s' belongs to %s but the "
                "program uses %s\n", words[0], mc_flavor_display(kind),
                mc_flavor_display(flavor));
    if ((dir = make_part_dir()) == NULL)
        goto out;

    /* --color (or MPICHECK_COLOR); auto: when a person sees our stderr. */
    int color = mc_config_use_color(&a.cfg, isatty(STDERR_FILENO), getenv("NO_COLOR"));

    /* Ranks on nodes that do not see dir send their parts here. */
    char collector[1536];
    int collecting = mc_collect_start(dir, collector, sizeof collector) == 0;
    mc_command_spec spec = {
        .launcher = words, .launcher_kind = kind, .rest = a.rest, .nrest = a.nrest,
        .library = lib, .old_preload = getenv("LD_PRELOAD"), .dir = dir,
        .cfg = &a.cfg, .color = color, .envp = environ, .collector = collecting ? collector : NULL,
    };
    mc_command cmd;
    if (mc_build_command(&spec, &cmd) != 0) {
        fprintf(stderr, "mpicheck: out of memory\n");
        goto out;
    }
    int wstatus = 0;
    mc_live_options live = {.color = color, .verbose = a.cfg.verbose, .filter = filter,
                            .gen_suppressions = a.cfg.gen_suppressions};
    mc_live_start(dir, &live);
    mc_hang_watch_start(dir, mc_config_hang_timeout(&a.cfg), a.cfg.abort_on_deadlock, color, mc_run_stop_job);
    int started = mc_run_job(&cmd, &wstatus) == 0;
    int job_code = started ? mc_status_exit_code(wstatus) : 0;
    mc_collect_finish();
    mc_hang_watch_stop();
    /* Before the terminal report's last pass, which prints it. */
    if (job_code != 0 && !mc_run_stopped())
        mc_vanished_report(dir, job_code);
    mc_live_stop();
    mc_command_clear(&cmd);
    if (started) {
        /* Hydra's mpiexec exits 0 after SIGINT: an interrupted job must
         * not look like a successful one. */
        if (job_code == 0 && mc_run_forwarded_signal() != 0)
            job_code = 128 + mc_run_forwarded_signal();
        code = finish(dir, &a.cfg, filter, job_code);
    }

out:
    if (dir != NULL) {
        const char *keep = getenv("MPICHECK_KEEP_DIR");
        int keep_it = 0;
        if (keep != NULL && *keep != '\0' && mc_parse_bool(keep, &keep_it) != 0)
            keep_it = 1; /* any other non-empty value: better kept than lost */
        if (keep_it)
            fprintf(stderr, "mpicheck: report parts kept in %s\n", dir);
        else
            nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(dir);
    }
    mc_free_words(words);
    mc_filter_free(filter);
    free(lib);
    mc_config_clear(&a.cfg);
    return code;
}
