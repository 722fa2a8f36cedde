/*
 * detect.c - PROGRAM among the launcher arguments, and which MPI it uses.
 *
 * The checker library is built once per MPI (the two ABIs differ), so the
 * launcher must know the flavor before it starts anything. The program's
 * own dynamic dependencies are the ground truth; only a script, which links
 * nothing, falls back to the flavor of the launcher that would run it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* POSIX/GNU calls (strndup, realpath...) even under -std=c11 */
#endif
#include "detect.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Launcher options followed by one value (Open MPI's mpirun and MPICH's
 * Hydra mpiexec), and by two (-mca NAME VALUE, -genv NAME VALUE). */
static const char *const one_value_opts[] = {
    "-np", "-n", "-c", "-N", "-H", "-host", "--host", "-hostfile", "--hostfile",
    "-machinefile", "--machinefile", "-f", "-x", "--map-by", "-map-by",
    "--bind-to", "-bind-to", "--rank-by", "-rank-by", "-npernode", "--npernode",
    "-ppn", "-wdir", "--wdir", "-path", "--prefix", "-genvlist", "-envlist",
    "-launcher", "-bootstrap", "-iface",
    /* Further value options of Open MPI 4.1 (mpirun --help all) ... */
    "--np", "--n", "-wd", "--wd", "--path", "-am", "-tune", "--ppr", "-rf",
    "--rankfile", "-cf", "--cartofile", "-cpu-list", "--cpu-list", "-cpu-set",
    "--cpu-set", "-cpus-per-proc", "--cpus-per-proc", "-cpus-per-rank",
    "--cpus-per-rank", "-npersocket", "--npersocket", "-timeout", "--timeout",
    "-output-filename", "--output-filename", "-report-pid", "--report-pid",
    "-report-uri", "--report-uri", "-report-events", "--report-events",
    "-stdin", "--stdin", "-xml-file", "--xml-file", "-xterm", "--xterm",
    "-hnp", "--hnp", "-ompi-server", "--ompi-server", "-debugger", "--debugger",
    "-default-hostfile", "--default-hostfile", "-launch-agent", "--launch-agent",
    "-max-restarts", "--max-restarts", "-max-vm-size", "--max-vm-size",
    "-personality", "--personality", "--preload-files",
    /* ... and of MPICH 4.0's Hydra (mpiexec --help). */
    "-hosts", "-configfile", "-launcher-exec", "-rmk", "-topolib", "-membind",
    "-demux", "-prepend-pattern", "-outfile-pattern", "-errfile-pattern",
    "-nameserver", "-order-nodes", "-localhost", "-usize", "-gpus-per-proc",
};
static const char *const two_value_opts[] = {
    "-mca", "--mca", "-gmca", "--gmca", "-genv", "-env",
};

static int in_list(const char *tok, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(tok, list[i]) == 0)
            return 1;
    return 0;
}

int mc_find_program(int n, char *const *args, const char **wdir)
{
    if (wdir != NULL)
        *wdir = NULL;
    for (int i = 0; i < n; i++) {
        const char *tok = args[i];
        if (tok[0] != '-')
            return i;
        /* "--opt=value" carries its value inside the token. */
        if (in_list(tok, one_value_opts, sizeof one_value_opts / sizeof *one_value_opts)) {
            if (wdir != NULL && i + 1 < n &&
                (strcmp(tok, "-wdir") == 0 || strcmp(tok, "--wdir") == 0 ||
                 strcmp(tok, "-wd") == 0 || strcmp(tok, "--wd") == 0))
                *wdir = args[i + 1];
            i += 1;
        } else if (in_list(tok, two_value_opts, sizeof two_value_opts / sizeof *two_value_opts)) {
            i += 2;
        } else if (wdir != NULL && strncmp(tok, "--wdir=", 7) == 0) {
            *wdir = tok + 7;
        } else if (wdir != NULL && strncmp(tok, "--wd=", 5) == 0) {
            *wdir = tok + 5;
        }
    }
    return -1;
}

static int is_exec_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Walks PATH the way execvp does (an empty element means the current
 * directory). want_exec 0 finds any existing file, to tell "not found" from
 * "not executable". */
static char *search_path(const char *name, const char *path_env, int want_exec)
{
    const char *p = path_env ? path_env : "/bin:/usr/bin";
    size_t nlen = strlen(name);
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
        char *cand = malloc(dlen + nlen + 3);
        if (cand == NULL)
            return NULL;
        if (dlen == 0)
            snprintf(cand, nlen + 3, "./%s", name);
        else
            sprintf(cand, "%.*s/%s", (int)dlen, p, name);
        struct stat st;
        if (want_exec ? is_exec_file(cand) : (stat(cand, &st) == 0 && !S_ISDIR(st.st_mode)))
            return cand;
        free(cand);
        if (colon == NULL)
            return NULL;
        p = colon + 1;
    }
}

char *mc_which(const char *name, const char *path_env)
{
    if (name == NULL || *name == '\0')
        return NULL;
    if (strchr(name, '/') != NULL)
        return is_exec_file(name) ? strdup(name) : NULL;
    return search_path(name, path_env, 1);
}

char *mc_resolve_program(const char *prog, const char *wdir, const char *path_env,
                         char *err, size_t errlen)
{
    if (*prog == '\0') {
        snprintf(err, errlen, "program '' not found: empty name");
        return NULL;
    }
    if (strchr(prog, '/') == NULL) {
        char *found = search_path(prog, path_env, 1);
        if (found != NULL)
            return found;
        char *exists = search_path(prog, path_env, 0);
        if (exists != NULL) {
            snprintf(err, errlen, "program '%s' is not executable (found %s)", prog, exists);
            free(exists);
        } else {
            snprintf(err, errlen, "program '%s' not found (searched PATH)", prog);
        }
        return NULL;
    }
    char *path;
    if (prog[0] != '/' && wdir != NULL) {
        size_t len = strlen(wdir) + strlen(prog) + 2;
        path = malloc(len);
        if (path != NULL)
            snprintf(path, len, "%s/%s", wdir, prog);
    } else {
        path = strdup(prog);
    }
    if (path == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "program '%s' not found", path);
    } else if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) {
        snprintf(err, errlen, "program '%s' is not executable", path);
    } else {
        return path;
    }
    free(path);
    return NULL;
}

int mc_is_elf(const char *path)
{
    unsigned char magic[4];
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return 0;
    size_t got = fread(magic, 1, 4, f);
    fclose(f);
    return got == 4 && memcmp(magic, "\177ELF", 4) == 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

mc_mpi_flavor mc_flavor_from_ldd_line(const char *line)
{
    char soname[256];
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = strcspn(p, " \t\n");
    if (n == 0 || n >= sizeof soname)
        return MC_MPI_UNKNOWN;
    memcpy(soname, p, n);
    soname[n] = '\0';
    /* A full path (the "/lib64/ld-linux..." line) names the file itself. */
    const char *base = strrchr(soname, '/') ? strrchr(soname, '/') + 1 : soname;
    const char *arrow = strstr(line, "=> ");
    const char *target = arrow ? arrow + 3 : soname;

    if (starts_with(base, "libmpicheck"))
        return MC_MPI_UNKNOWN; /* the checker itself (a program linked with -lmpicheck) */
    if (starts_with(base, "libmpich"))
        return MC_MPI_MPICH; /* libmpich.so.12, libmpichcxx, libmpichfort */
    if (starts_with(base, "libopen-pal.so") || starts_with(base, "libopen-rte.so") ||
        starts_with(base, "libmpi.so.40"))
        return MC_MPI_OPENMPI; /* the Open MPI 3.x-5.x soname */
    if (starts_with(base, "libmpi.so")) {
        /* Other libmpi sonames: decide by where the library lives. */
        if (strstr(target, "openmpi") != NULL)
            return MC_MPI_OPENMPI;
        if (strstr(target, "mpich") != NULL || starts_with(base, "libmpi.so.12"))
            return MC_MPI_MPICH; /* .12 is the MPICH ABI */
    }
    return MC_MPI_UNKNOWN;
}

/* Single-quotes s for sh. */
static char *shell_quote(const char *s)
{
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *q = malloc(n), *o = q;
    if (q == NULL)
        return NULL;
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

/* Runs ldd on path. *flavor: what it links (UNKNOWN: neither); returns -1
 * when it links both or ldd cannot run. libname gets the deciding line's
 * library, *is_static 1 when ldd says it is not dynamic. */
static int ldd_flavor(const char *path, mc_mpi_flavor *flavor, char *libname,
                      size_t liblen, int *is_static, char *err, size_t errlen)
{
    char *quoted = shell_quote(path);
    if (quoted == NULL)
        return -1;
    /* An empty LD_PRELOAD keeps whatever mpicheck itself was started with
     * out of the dependency list. */
    size_t clen = strlen(quoted) + 64;
    char *cmd = malloc(clen);
    if (cmd == NULL) {
        free(quoted);
        return -1;
    }
    snprintf(cmd, clen, "LD_PRELOAD= ldd -- %s 2>&1", quoted);
    free(quoted);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (p == NULL) {
        snprintf(err, errlen, "cannot run ldd on '%s'", path);
        return -1;
    }
    char line[4096];
    int seen[3] = {0, 0, 0};
    *flavor = MC_MPI_UNKNOWN;
    *is_static = 0;
    libname[0] = '\0';
    while (fgets(line, sizeof line, p) != NULL) {
        if (strstr(line, "not a dynamic executable") || strstr(line, "statically linked"))
            *is_static = 1;
        mc_mpi_flavor f = mc_flavor_from_ldd_line(line);
        if (f != MC_MPI_UNKNOWN && !seen[f]) {
            seen[f] = 1;
            if (*flavor == MC_MPI_UNKNOWN) {
                *flavor = f;
                size_t k = strspn(line, " \t");
                snprintf(libname, liblen, "%.*s", (int)strcspn(line + k, " \t\n"), line + k);
            }
        }
    }
    pclose(p);
    if (seen[MC_MPI_OPENMPI] && seen[MC_MPI_MPICH]) {
        snprintf(err, errlen, "'%s' links both Open MPI and MPICH libraries; "
                 "pass --mpi=openmpi or --mpi=mpich", path);
        return -1;
    }
    return 0;
}

/* A Python interpreter with mpi4py: the MPI its extension module links
 * (importing the mpi4py package starts no MPI). UNKNOWN when it is not
 * one, or has no mpi4py. */
static mc_mpi_flavor mpi4py_flavor(const char *prog_path, const char *prog_name)
{
    const char *base = strrchr(prog_name, '/') ? strrchr(prog_name, '/') + 1 : prog_name;
    if (!starts_with(base, "python"))
        return MC_MPI_UNKNOWN;
    char *quoted = shell_quote(prog_path);
    if (quoted == NULL)
        return MC_MPI_UNKNOWN;
    size_t clen = strlen(quoted) + 256;
    char *cmd = malloc(clen);
    if (cmd == NULL) {
        free(quoted);
        return MC_MPI_UNKNOWN;
    }
    snprintf(cmd, clen, "LD_PRELOAD= %s -c 'import glob, os, mpi4py; "
             "print(*glob.glob(os.path.join(os.path.dirname(mpi4py.__file__), \"MPI*.so\")), sep=\"\\n\")' "
             "2>/dev/null", quoted);
    free(quoted);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (p == NULL)
        return MC_MPI_UNKNOWN;
    char line[PATH_MAX];
    mc_mpi_flavor f = MC_MPI_UNKNOWN;
    while (f == MC_MPI_UNKNOWN && fgets(line, sizeof line, p) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char lib[256], err[256];
        int is_static;
        if (line[0] && ldd_flavor(line, &f, lib, sizeof lib, &is_static, err, sizeof err) != 0)
            f = MC_MPI_UNKNOWN;
    }
    pclose(p);
    return f;
}

mc_mpi_flavor mc_launcher_flavor(const char *cmd, const char *path_env)
{
    if (cmd == NULL)
        return MC_MPI_UNKNOWN;
    char *found = mc_which(cmd, path_env);
    char real[PATH_MAX];
    const char *names[2] = {cmd, NULL};
    if (found != NULL && realpath(found, real) != NULL)
        names[1] = real;
    free(found);
    /* The realpath is more telling (mpirun -> /etc/alternatives -> orterun),
     * so it is looked at first. */
    for (int i = 1; i >= 0; i--) {
        const char *s = names[i];
        if (s == NULL)
            continue;
        const char *base = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
        if (strstr(s, "openmpi") || strstr(base, "orterun") || strstr(base, "prterun"))
            return MC_MPI_OPENMPI;
        if (strstr(s, "mpich") || strstr(base, "hydra"))
            return MC_MPI_MPICH;
    }
    return MC_MPI_UNKNOWN;
}

const char *mc_flavor_display(mc_mpi_flavor f)
{
    return f == MC_MPI_OPENMPI ? "Open MPI" : f == MC_MPI_MPICH ? "MPICH" : "unknown MPI";
}

int mc_detect_flavor(const char *prog_path, const char *prog_name,
                     mc_mpi_flavor requested, const char *launcher0,
                     const char *path_env, mc_mpi_flavor *out,
                     char *err, size_t errlen)
{
    if (!mc_is_elf(prog_path)) {
        /* A script links nothing: trust --mpi, else the launcher. */
        if (requested != MC_MPI_UNKNOWN) {
            *out = requested;
            return 0;
        }
        mc_mpi_flavor f = mc_launcher_flavor(launcher0, path_env);
        if (f == MC_MPI_UNKNOWN)
            f = mc_launcher_flavor("mpirun", path_env);
        if (f == MC_MPI_UNKNOWN) {
            snprintf(err, errlen, "cannot tell which MPI '%s' uses: it is not an ELF "
                     "program and mpirun is neither Open MPI's nor MPICH's; "
                     "pass --mpi=openmpi or --mpi=mpich", prog_name);
            return -1;
        }
        *out = f;
        return 0;
    }
    mc_mpi_flavor f;
    char lib[256];
    int is_static;
    if (ldd_flavor(prog_path, &f, lib, sizeof lib, &is_static, err, errlen) != 0)
        return -1;
    if (f == MC_MPI_UNKNOWN && requested != MC_MPI_UNKNOWN && !is_static) {
        /* An interpreter (python3 with mpi4py) loads MPI at run time: with
         * --mpi the user says which. */
        *out = requested;
        return 0;
    }
    if (f == MC_MPI_UNKNOWN && !is_static && (f = mpi4py_flavor(prog_path, prog_name)) != MC_MPI_UNKNOWN) {
        *out = f;       /* python3 with mpi4py: the MPI its module links */
        return 0;
    }
    if (f == MC_MPI_UNKNOWN) {
        snprintf(err, errlen, "'%s' is not an MPI program: it links neither Open MPI's "
                 "libmpi nor MPICH's libmpich%s (for an interpreter that loads MPI at run "
                 "time, pass --mpi; python3 with mpi4py is recognized)", prog_name,
                 is_static ? " (it is statically linked; the checker needs a "
                             "dynamically linked MPI)" : "");
        return -1;
    }
    if (requested != MC_MPI_UNKNOWN && requested != f) {
        snprintf(err, errlen, "--mpi=%s contradicts '%s', which is linked with %s (%s)",
                 mc_mpi_flavor_name(requested), prog_name, mc_flavor_display(f), lib);
        return -1;
    }
    *out = f;
    return 0;
}
