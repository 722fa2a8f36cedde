/*
 * live.c - the launcher's terminal report (live.h).
 *
 * A thread looks at the part directory ten times a second (twice with
 * more than 64 part files), reads the complete lines each part file got
 * since the last look, folds the findings into a report document of its
 * own (merge.c) and prints those it has not printed yet. A line still
 * being written (no newline yet) waits for the next look. The launcher's
 * final merge (main.c) reads the files again on its own: this document
 * only decides what the terminal shows.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "live.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "skipped.h"
#include "writers.h"

typedef struct {
    char *name;
    long off;               /* bytes of complete lines read */
} part_file;

typedef struct {
    int printed;
    int hidden;                 /* suppressed, or its check is off */
    unsigned long first_pass;   /* the pass that read its first report */
    size_t first_ncalls;    /* the calls of the first report: the block shows those */
    size_t printed_nranks;
} shown;

static struct {
    pthread_t thread;
    int running;
    int stop;
    pthread_mutex_t lock;   /* one pass at a time: the watch thread, the hang watch, the end */
    pthread_cond_t wake;
    char *dir;
    mc_live_options o;
    part_file *files;
    size_t nfiles, capfiles;
    mc_report_doc doc;
    mc_merger *merger;
    shown *shown;
    size_t capshown;
    unsigned long pass;
} L = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER};

static int is_part(const char *name)
{
    size_t n = strlen(name);
    return n > 11 && strncmp(name, "rank-", 5) == 0 && strcmp(name + n - 6, ".jsonl") == 0;
}

static part_file *file_of(const char *name)
{
    for (size_t i = 0; i < L.nfiles; i++)
        if (strcmp(L.files[i].name, name) == 0)
            return &L.files[i];
    if (L.nfiles == L.capfiles) {
        size_t cap = L.capfiles ? 2 * L.capfiles : 64;
        part_file *f = mc_realloc(L.files, cap * sizeof *f);
        if (!f)
            return NULL;
        L.files = f;
        L.capfiles = cap;
    }
    char *copy = mc_strdup(name);
    if (!copy)
        return NULL;
    L.files[L.nfiles] = (part_file){.name = copy, .off = 0};
    return &L.files[L.nfiles++];
}

static void print_text(char *text)
{
    if (text) {
        fputs(text, stderr);
        free(text);
    }
}

/* Whether the terminal shows x: its check is on and no suppression
 * matched it (the rank marks what it suppressed; the launcher's own
 * findings are matched here). */
static int shows(const mc_finding *x)
{
    return mc_filter_check_on(L.o.filter, x->cls) && !x->suppressed && !mc_filter_match(L.o.filter, x);
}

static void print_entry(const mc_finding *x)
{
    if (!L.o.gen_suppressions)
        return;
    char *entry = mc_filter_entry_for(x);
    if (entry) {
        fputs("mpicheck: a suppression for it (--suppressions=FILE):\n", stderr);
        print_text(entry);
    }
}

/* --verbose: the block of one rank's report, as the rank would print it. */
static void print_instance(const char *line, size_t len)
{
    mc_finding f;
    if (mc_part_line_finding(line, len, &f)) {
        if (shows(&f)) {
            mc_text_options t = {.color = L.o.color, .ncalls = f.ncalls, .source = 1};
            print_text(mc_finding_format(&f, &t));
            print_entry(&f);
        }
        mc_finding_clear(&f);
    }
}

static int grow_shown(void)
{
    if (L.doc.nfindings <= L.capshown)
        return 0;
    size_t cap = L.capshown ? L.capshown : 16;
    while (cap < L.doc.nfindings)
        cap *= 2;
    shown *s = mc_realloc(L.shown, cap * sizeof *s);
    if (!s)
        return -1;
    memset(s + L.capshown, 0, (cap - L.capshown) * sizeof *s);
    L.shown = s;
    L.capshown = cap;
    return 0;
}

static void read_part(const char *path, part_file *pf)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    if (fseek(fp, pf->off, SEEK_SET) != 0) {
        fclose(fp);
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, fp)) > 0) {
        if (line[n - 1] != '\n')
            break;          /* still being written: read again next time */
        pf->off += (long)n;
        size_t found = (size_t)-1;
        if (L.o.verbose)
            print_instance(line, (size_t)n - 1);
        size_t before = L.doc.nfindings;
        if (mc_merger_line(L.merger, line, (size_t)n - 1, &found) != 0 || found == (size_t)-1)
            continue;
        if (grow_shown() != 0)
            continue;
        if (L.doc.nfindings > before) {
            L.shown[found].first_ncalls = L.doc.findings[found].ncalls;
            L.shown[found].first_pass = L.pass;
        }
    }
    free(line);
    fclose(fp);
}

static void print_block(size_t i)
{
    mc_report_finding_name_hosts(&L.doc, &L.doc.findings[i]);     /* a job across nodes: each call's host */
    const mc_finding *f = &L.doc.findings[i];
    L.shown[i].printed = 1;
    L.shown[i].printed_nranks = f->nranks;
    if (!shows(f)) {
        L.shown[i].hidden = 1;
        return;
    }
    char ranks[512], extra[640] = "";
    /* One report: its call lines name the rank. Several: say which. */
    if (f->ncalls > L.shown[i].first_ncalls) {
        mc_ranks_text(f->ranks, f->nranks, ranks, sizeof ranks);
        if (L.doc.saw_job_line && L.doc.job.nprocs > 0)
            snprintf(extra, sizeof extra, "reported by ranks %s (%zu of %d); the first report follows",
                     ranks, f->nranks, L.doc.job.nprocs);
        else
            snprintf(extra, sizeof extra, "reported by ranks %s; the first report follows", ranks);
    }
    mc_text_options t = {.color = L.o.color, .ncalls = L.shown[i].first_ncalls,
                         .extra = extra[0] ? extra : NULL, .source = 1};
    print_text(mc_finding_format(f, &t));
    print_entry(f);
}

/* Part files by rank ("rank-12.jsonl" after "rank-3.jsonl"), so that the
 * first report shown of a finding is its lowest rank's. */
static long rank_of(const char *name)
{
    return name[5] >= '0' && name[5] <= '9' ? strtol(name + 5, NULL, 10) : -1;
}

static int by_rank(const void *a, const void *b)
{
    const part_file *x = a, *y = b;
    long r = rank_of(x->name), q = rank_of(y->name);
    return r != q ? (r > q) - (r < q) : strcmp(x->name, y->name);
}

/* One look: new lines of every part file, then the blocks of the findings
 * first read in an earlier look (ranks that report one thing together,
 * as leaks at MPI_Finalize, fold into one block) or, at the end, all. */
static void pass_locked(int last)
{
    if (!L.merger)
        return;
    DIR *d = opendir(L.dir);
    if (!d)
        return;
    struct dirent *e;
    size_t known = L.nfiles;
    while ((e = readdir(d)) != NULL)
        if (is_part(e->d_name))
            file_of(e->d_name);
    closedir(d);
    if (L.nfiles != known)
        qsort(L.files, L.nfiles, sizeof *L.files, by_rank);
    for (size_t i = 0; i < L.nfiles; i++) {
        char path[4096];
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", L.dir, L.files[i].name);
        if (stat(path, &sb) == 0 && sb.st_size > L.files[i].off)
            read_part(path, &L.files[i]);
    }
    for (size_t i = 0; i < L.doc.nfindings && i < L.capshown; i++) {
        if (L.shown[i].printed || (!last && L.shown[i].first_pass == L.pass))
            continue;
        if (L.o.verbose)
            L.shown[i].printed = 1;
        else
            print_block(i);
    }
    L.pass++;
    fflush(stderr);
}

void mc_live_pass(void)
{
    if (!L.running)
        return;
    pthread_mutex_lock(&L.lock);
    pass_locked(1);
    pthread_mutex_unlock(&L.lock);
}

static void *watch(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&L.lock);
    while (!L.stop) {
        pass_locked(0);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        long ns = L.nfiles > 64 ? 500000000L : 100000000L;
        until.tv_nsec += ns;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (!L.stop && pthread_cond_timedwait(&L.wake, &L.lock, &until) == 0)
            ;
    }
    pthread_mutex_unlock(&L.lock);
    return NULL;
}

static char *marker_path(void)
{
    size_t n = strlen(L.dir) + sizeof MC_LIVE_MARKER + 2;
    char *p = mc_malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", L.dir, MC_LIVE_MARKER);
    return p;
}

int mc_live_start(const char *dir, const mc_live_options *o)
{
    L.dir = mc_strdup(dir);
    L.o = *o;
    memset(&L.doc, 0, sizeof L.doc);
    L.merger = L.dir ? mc_merger_new(&L.doc) : NULL;
    char *marker = L.dir ? marker_path() : NULL;
    int fd = marker ? open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600) : -1;
    if (fd >= 0)
        close(fd);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&L.wake, &ca);
    pthread_condattr_destroy(&ca);
    /* The forwarded signals belong to the main thread (run.c). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = fd < 0 || !L.merger ? -1 : pthread_create(&L.thread, NULL, watch, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        if (marker)
            unlink(marker);
        fprintf(stderr, "mpicheck: warning: cannot start the terminal report: each rank prints "
                "its own findings\n");
        free(marker);
        mc_merger_free(L.merger);
        L.merger = NULL;
        return -1;
    }
    free(marker);
    L.running = 1;
    return 0;
}

void mc_live_stop(void)
{
    if (!L.running)
        return;
    pthread_mutex_lock(&L.lock);
    L.stop = 1;
    pthread_cond_signal(&L.wake);
    pthread_mutex_unlock(&L.lock);
    pthread_join(L.thread, NULL);
    L.running = 0;
    pass_locked(1);
    /* Ranks that reported a printed finding after it was printed. */
    for (size_t i = 0; !L.o.verbose && i < L.doc.nfindings && i < L.capshown; i++) {
        const mc_finding *f = &L.doc.findings[i];
        if (!L.shown[i].printed || L.shown[i].hidden || f->nranks <= L.shown[i].printed_nranks)
            continue;
        char ranks[512], site[256] = "";
        mc_ranks_text(f->ranks, f->nranks, ranks, sizeof ranks);
        if (f->ncalls)
            mc_call_site_text(&f->calls[0], site, sizeof site);
        fprintf(stderr, "mpicheck: the %s%s%s above was reported by ranks %s", mc_class_name(f->cls),
                site[0] ? " at " : "", site, ranks);
        if (L.doc.saw_job_line && L.doc.job.nprocs > 0)
            fprintf(stderr, " (%zu of %d)", f->nranks, L.doc.job.nprocs);
        fputc('\n', stderr);
    }
    fflush(stderr);
    mc_merger_free(L.merger);
    L.merger = NULL;
    mc_report_doc_clear(&L.doc);
    for (size_t i = 0; i < L.nfiles; i++)
        free(L.files[i].name);
    free(L.files);
    free(L.shown);
    free(L.dir);
    L.files = NULL;
    L.shown = NULL;
    L.dir = NULL;
    L.nfiles = L.capfiles = L.capshown = 0;
}
