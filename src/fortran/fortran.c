/*
 * fortran.c - the Fortran sentinels, strings and the library's own entry
 * points, for the generated Fortran entry points (fortran.h).
 *
 * RATIONALE: Fortran's MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS_IGNORE, ... are
 * variables in common blocks (mpif.h, the `mpi` module), compared by address.
 * Open MPI defines them in libmpi under every name mangling a Fortran
 * compiler may use (mpi_fortran_in_place_, MPI_FORTRAN_IN_PLACE, ...), and
 * its own binding compares against all of them; so does this file, looking
 * them up once with dlsym. MPICH's mpif.h entry points are not converted
 * here at all (its binding calls the C MPI_ functions, which the C wrappers
 * check), and its mpi_f08 ones that are have no buffer arguments.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fortran.h"
#include "skipped.h"

enum { S_IN_PLACE, S_BOTTOM, S_STATUS_IGNORE, S_STATUSES_IGNORE, S_UNWEIGHTED, S_WEIGHTS_EMPTY, S_COUNT };
#define MANGLINGS 4
static const char *const sentinel_names[S_COUNT] = {
    "in_place", "bottom", "status_ignore", "statuses_ignore", "unweighted", "weights_empty",
};
static void *sentinels[S_COUNT][MANGLINGS];
static pthread_once_t sentinels_once = PTHREAD_ONCE_INIT;

static void find_sentinels(void)
{
    for (int s = 0; s < S_COUNT; s++) {
        char lower[64], upper[64], name[72];
        snprintf(lower, sizeof lower, "mpi_fortran_%s", sentinel_names[s]);
        size_t i;
        for (i = 0; lower[i] && i + 1 < sizeof upper; i++)
            upper[i] = (char)(lower[i] >= 'a' && lower[i] <= 'z' ? lower[i] - 'a' + 'A' : lower[i]);
        upper[i] = '\0';
        const char *forms[MANGLINGS][2] = {{lower, ""}, {lower, "_"}, {lower, "__"}, {upper, ""}};
        for (int m = 0; m < MANGLINGS; m++) {
            snprintf(name, sizeof name, "%s%s", forms[m][0], forms[m][1]);
            sentinels[s][m] = dlsym(RTLD_DEFAULT, name);
        }
    }
}

static int is_sentinel(int s, const void *p)
{
    if (!p)
        return 0;
    pthread_once(&sentinels_once, find_sentinels);
    for (int m = 0; m < MANGLINGS; m++)
        if (sentinels[s][m] && sentinels[s][m] == p)
            return 1;
    return 0;
}

void *mc_f_buf(void *p)
{
    if (is_sentinel(S_IN_PLACE, p))
        return MPI_IN_PLACE;
    if (is_sentinel(S_BOTTOM, p))
        return MPI_BOTTOM;
    return p;
}

int *mc_f_weights(void *p)
{
    if (is_sentinel(S_UNWEIGHTED, p))
        return MPI_UNWEIGHTED;
    if (is_sentinel(S_WEIGHTS_EMPTY, p))
        return MPI_WEIGHTS_EMPTY;
    return p;
}

int mc_f_status_ignored(int conv, const void *p)
{
#ifdef MPICH_VERSION /* MPI-4.0's C names of the mpi_f08 sentinels */
    if (conv == MC_F_F08)
        return p == (const void *)MPI_F08_STATUS_IGNORE;
#endif
    return p == (const void *)MPI_F_STATUS_IGNORE || is_sentinel(S_STATUS_IGNORE, p);
}

int mc_f_statuses_ignored(int conv, const void *p)
{
#ifdef MPICH_VERSION
    if (conv == MC_F_F08)
        return p == (const void *)MPI_F08_STATUSES_IGNORE;
#endif
    return p == (const void *)MPI_F_STATUSES_IGNORE || is_sentinel(S_STATUSES_IGNORE, p);
}

int mc_f_index_from_1(int conv)
{
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
    return conv != MC_F_F08;
#else
    (void)conv;
    return 1;
#endif
}

MPI_Status *mc_f_statuses_ignore(void)
{
    return MPI_STATUSES_IGNORE;
}

char *mc_f_str_in(const char *s, int len, char *buf, size_t size)
{
    if (len < 0)
        len = 0;
    while (len > 0 && s[0] == ' ') {
        s++;
        len--;
    }
    while (len > 0 && s[len - 1] == ' ')
        len--;
    char *c = (size_t)len < size ? buf : mc_malloc((size_t)len + 1);
    if (c) {
        if (len)
            memcpy(c, s, (size_t)len);
        c[len] = '\0';
    }
    return c;
}

char *mc_f_str_buf(const char *f, int len, char *buf, size_t size)
{
    size_t n = (size_t)(len > 0 ? len : 0), need = n + 8192 + 1;
    char *c = need <= size ? buf : mc_malloc(need);
    if (c) {
        memset(c, 0, need);
        if (n)
            memcpy(c, f, n);
    }
    return c;
}

void mc_f_str_out(char *dst, int len, const char *src)
{
    if (!dst || len <= 0)
        return;
    size_t n = src ? strnlen(src, (size_t)len) : 0;
    memcpy(dst, src, n);
    memset(dst + n, ' ', (size_t)len - n);
}

void *mc_f_next(const char *sym)
{
    void *f = dlsym(RTLD_NEXT, sym);
    if (!f) {
        fprintf(stderr, "mpicheck: the program calls the Fortran MPI entry point %s, which its MPI "
                        "library does not define\n", sym);
        exit(2);
    }
    return f;
}

int mc_f_comm_span(MPI_Comm comm)
{
    int inter = 0, n = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;
    if ((inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS)
        return 0;
    return n;
}

void *mc_f_array(int n, size_t size, int *err)
{
    if (n <= 0)
        return NULL;
    void *a = mc_calloc((size_t)n, size);
    if (!a)
        *err = MPI_ERR_NO_MEM;
    return a;
}
