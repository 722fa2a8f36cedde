/*
 * typesig.c - datatype handle -> type signature, with a per-handle cache.
 * PMPI_ calls only. See typesig.h for the API, sigrun.h for the signature
 * model and docs/type-matching.md for the rules.
 */
#include "typesig.h"
#include "typecache.h"
#include "skipped.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
/* Keys: 8-byte datatype handles, well spread; a multiply-shift is far
 * cheaper than uthash's Jenkins hash (docs/performance.md). */
#define HASH_FUNCTION(keyptr, keylen, hashv) do { uint64_t k_; memcpy(&k_, (keyptr), sizeof k_); \
        (hashv) = (unsigned)((k_ * 0x9E3779B97F4A7C15ULL) >> 32); } while (0)
#include <uthash.h>

/* Nesting deeper than this is read as one element of unknown type: it bounds
 * the recursion on the C stack, and no real program nests this deep. */
#define MAX_DEPTH 64
/* Constructors read for one datatype at most. Open MPI's get_contents returns
 * a new duplicate handle for every derived member, so nothing is shared and a
 * type built by repeated doubling would be read 2^depth times; past this many
 * the rest counts as unknown. */
#define MAX_NODES 100000

/* The legacy combiners (MPI_Type_hvector, _hindexed, _struct of MPI-1) carry
 * their displacements as integers; the counts sit where the MPI-2 ones have
 * them, which is all a signature needs. Open MPI 4 hides their names unless
 * built with MPI-1 compatibility, but keeps the values. */
#if defined(OPEN_MPI) && !OMPI_ENABLE_MPI1_COMPAT
#define COMB_HVECTOR_INTEGER OMPI_WAS_MPI_COMBINER_HVECTOR_INTEGER
#define COMB_HINDEXED_INTEGER OMPI_WAS_MPI_COMBINER_HINDEXED_INTEGER
#define COMB_STRUCT_INTEGER OMPI_WAS_MPI_COMBINER_STRUCT_INTEGER
#elif defined(OPEN_MPI) || defined(MPICH_VERSION)
#define COMB_HVECTOR_INTEGER MPI_COMBINER_HVECTOR_INTEGER
#define COMB_HINDEXED_INTEGER MPI_COMBINER_HINDEXED_INTEGER
#define COMB_STRUCT_INTEGER MPI_COMBINER_STRUCT_INTEGER
#else
#define COMB_HVECTOR_INTEGER (-1001)
#define COMB_HINDEXED_INTEGER (-1002)
#define COMB_STRUCT_INTEGER (-1003)
#endif

/* MPI_LB and MPI_UB (removed in MPI-3.0) still appear in datatypes built by
 * old binaries. Open MPI 4 keeps the objects but not the names; a weak
 * reference finds them without requiring them. */
#if defined(OPEN_MPI) && !OMPI_ENABLE_MPI1_COMPAT
#define WEAK_LB_UB 1        /* there MPI_LB expands to a _Static_assert */
extern struct ompi_predefined_datatype_t ompi_mpi_lb __attribute__((weak));
extern struct ompi_predefined_datatype_t ompi_mpi_ub __attribute__((weak));
#endif

typedef struct {
    uint64_t key;           /* handle bits: a pointer in Open MPI, an int in MPICH */
    mc_sig sig;
    int sized;              /* sig.size was filled (predefined sizes are read lazily) */
    UT_hash_handle hh;
} sig_entry;

static struct {
    pthread_mutex_t lock;
    int ready;
    sig_entry *predefined;  /* constant handles; built once */
    sig_entry *derived;     /* handles the checker was asked about; mc_typesig_forget removes */
} st = { .lock = PTHREAD_MUTEX_INITIALIZER };

static uint64_t handle_bits(MPI_Datatype t)
{
    uint64_t b = 0;
    memcpy(&b, &t, sizeof t < sizeof b ? sizeof t : sizeof b);
    return b;
}

static sig_entry *find(sig_entry *table, MPI_Datatype t)
{
    uint64_t k = handle_bits(t);
    sig_entry *e;
    HASH_FIND(hh, table, &k, sizeof k, e);
    return e;
}

static void free_table(sig_entry **table)
{
    sig_entry *e, *tmp;
    HASH_ITER(hh, *table, e, tmp) {
        HASH_DEL(*table, e);
        mc_sig_free(&e->sig);
        free(e);
    }
}

static sig_entry *new_entry(MPI_Datatype t)
{
    sig_entry *e = mc_calloc(1, sizeof *e);
    if (e) {
        e->key = handle_bits(t);
        mc_sig_init(&e->sig);
    }
    return e;
}

/* ---- Predefined datatypes ---------------------------------------------------- */

/* a, b: the basic ids of the type's elements (b < 0: one element; a < 0: no
 * data at all, MPI_LB and MPI_UB). Pair types are their two members: MPI-3.1
 * 5.9.4 defines MPI_2INT "as if" MPI_Type_contiguous(2, MPI_INT) and
 * MPI_SHORT_INT "as if" a struct of MPI_SHORT and MPI_INT, and likewise the
 * others. Synonyms share an id. Names only some libraries have are guarded. */
typedef struct {
    MPI_Datatype h;
    short a, b;
} predef;

#define ONE(n) { MPI_##n, MC_T_##n, -1 }
#define SYN(h, id) { h, MC_T_##id, -1 }
#define TWO(n, x, y) { MPI_##n, MC_T_##x, MC_T_##y }

static const predef predefs[] = {
    ONE(PACKED), ONE(BYTE), ONE(CHAR), ONE(SIGNED_CHAR), ONE(UNSIGNED_CHAR), ONE(WCHAR),
    ONE(SHORT), ONE(UNSIGNED_SHORT), ONE(INT), ONE(UNSIGNED), ONE(LONG), ONE(UNSIGNED_LONG),
    SYN(MPI_LONG_LONG_INT, LONG_LONG), ONE(LONG_LONG), ONE(UNSIGNED_LONG_LONG), ONE(FLOAT),
    ONE(DOUBLE), ONE(LONG_DOUBLE), ONE(INT8_T), ONE(INT16_T), ONE(INT32_T), ONE(INT64_T),
    ONE(UINT8_T), ONE(UINT16_T), ONE(UINT32_T), ONE(UINT64_T), ONE(C_BOOL), ONE(C_FLOAT_COMPLEX),
    SYN(MPI_C_COMPLEX, C_FLOAT_COMPLEX), ONE(C_DOUBLE_COMPLEX), ONE(C_LONG_DOUBLE_COMPLEX),
    ONE(AINT), ONE(OFFSET), ONE(COUNT), ONE(CXX_BOOL), ONE(CXX_FLOAT_COMPLEX),
    ONE(CXX_DOUBLE_COMPLEX), ONE(CXX_LONG_DOUBLE_COMPLEX), ONE(CHARACTER), ONE(LOGICAL),
    ONE(INTEGER), ONE(REAL), ONE(DOUBLE_PRECISION), ONE(COMPLEX), ONE(DOUBLE_COMPLEX),
    ONE(INTEGER1), ONE(INTEGER2), ONE(INTEGER4), ONE(INTEGER8), ONE(REAL4), ONE(REAL8),
    ONE(REAL16), ONE(COMPLEX8), ONE(COMPLEX16), ONE(COMPLEX32),
    TWO(FLOAT_INT, FLOAT, INT), TWO(DOUBLE_INT, DOUBLE, INT), TWO(LONG_INT, LONG, INT),
    TWO(SHORT_INT, SHORT, INT), TWO(2INT, INT, INT), TWO(LONG_DOUBLE_INT, LONG_DOUBLE, INT),
    TWO(2REAL, REAL, REAL), TWO(2DOUBLE_PRECISION, DOUBLE_PRECISION, DOUBLE_PRECISION),
    TWO(2INTEGER, INTEGER, INTEGER),
#ifdef MPI_CXX_COMPLEX
    SYN(MPI_CXX_COMPLEX, CXX_FLOAT_COMPLEX),
#endif
#ifdef MPI_INTEGER16
    ONE(INTEGER16),
#endif
#ifdef MPI_REAL2
    ONE(REAL2),
#endif
#ifdef MPI_COMPLEX4
    ONE(COMPLEX4),
#endif
#ifdef MPI_LOGICAL1
    ONE(LOGICAL1), ONE(LOGICAL2), ONE(LOGICAL4), ONE(LOGICAL8),
#endif
#ifdef MPIX_C_FLOAT16
    SYN(MPIX_C_FLOAT16, C_FLOAT16),
#endif
#if defined(MPI_2COMPLEX) && defined(MPI_2DOUBLE_COMPLEX)
    TWO(2COMPLEX, COMPLEX, COMPLEX), TWO(2DOUBLE_COMPLEX, DOUBLE_COMPLEX, DOUBLE_COMPLEX),
#endif
#if defined(MPI_LB) && !defined(WEAK_LB_UB)
    { MPI_LB, -1, -1 }, { MPI_UB, -1, -1 },
#endif
};

static void add_predef(MPI_Datatype h, int a, int b)
{
    /* Libraries built without Fortran make absent types MPI_DATATYPE_NULL;
     * a synonym keeps the first entry. */
    if (h == MPI_DATATYPE_NULL || find(st.predefined, h))
        return;
    sig_entry *e = new_entry(h);
    if (!e)
        return;
    if (a >= 0)
        mc_sig_append_run(&e->sig, (unsigned)a, 1);
    if (b >= 0)
        mc_sig_append_run(&e->sig, (unsigned)b, 1);
    e->sized = a < 0;       /* the markers have size 0 */
    HASH_ADD(hh, st.predefined, key, sizeof e->key, e);
}

/* MPI-4.0 sec. 19.3.10: "if the Fortran type INTEGER is identical to the C
 * type int, then an MPI implementation may allow data to be sent with
 * datatype MPI_INTEGER and be received with datatype MPI_INT". Open MPI and
 * MPICH both do, so a Fortran basic type matches the C type of its kind
 * and size (INTEGER and int; DOUBLE PRECISION, REAL*8 and double; ...),
 * never one of another kind or size (MPI_INTEGER against MPI_DOUBLE,
 * MPI_INTEGER8 against MPI_INT). The sizes are the library's. */
static void fortran_equivalents(void)
{
    enum { K_INT, K_REAL, K_COMPLEX, K_CHAR };
    static const struct { MPI_Datatype h; short id, kind; } fortran[] = {
        { MPI_INTEGER, MC_T_INTEGER, K_INT }, { MPI_INTEGER1, MC_T_INTEGER1, K_INT },
        { MPI_INTEGER2, MC_T_INTEGER2, K_INT }, { MPI_INTEGER4, MC_T_INTEGER4, K_INT },
        { MPI_INTEGER8, MC_T_INTEGER8, K_INT }, { MPI_REAL, MC_T_REAL, K_REAL },
        { MPI_DOUBLE_PRECISION, MC_T_DOUBLE_PRECISION, K_REAL }, { MPI_REAL4, MC_T_REAL4, K_REAL },
        { MPI_REAL8, MC_T_REAL8, K_REAL }, { MPI_COMPLEX, MC_T_COMPLEX, K_COMPLEX },
        { MPI_DOUBLE_COMPLEX, MC_T_DOUBLE_COMPLEX, K_COMPLEX }, { MPI_COMPLEX8, MC_T_COMPLEX8, K_COMPLEX },
        { MPI_COMPLEX16, MC_T_COMPLEX16, K_COMPLEX }, { MPI_CHARACTER, MC_T_CHARACTER, K_CHAR },
    };
    static const struct { short kind, size, id; } c_types[] = {
        { K_INT, 1, MC_T_SIGNED_CHAR }, { K_INT, 2, MC_T_SHORT }, { K_INT, 4, MC_T_INT },
        { K_INT, 8, MC_T_LONG_LONG }, { K_REAL, 4, MC_T_FLOAT }, { K_REAL, 8, MC_T_DOUBLE },
        { K_COMPLEX, 8, MC_T_C_FLOAT_COMPLEX }, { K_COMPLEX, 16, MC_T_C_DOUBLE_COMPLEX },
        { K_CHAR, 1, MC_T_CHAR },
    };
    for (size_t i = 0; i < sizeof fortran / sizeof fortran[0]; i++) {
        int size = 0;
        if (fortran[i].h == MPI_DATATYPE_NULL || PMPI_Type_size(fortran[i].h, &size) != MPI_SUCCESS)
            continue;       /* a library built without Fortran */
        for (size_t j = 0; j < sizeof c_types / sizeof c_types[0]; j++)
            if (c_types[j].kind == fortran[i].kind && c_types[j].size == size)
                mc_sig_set_same((unsigned)fortran[i].id, (unsigned)c_types[j].id);
    }
}

/* Under the lock. */
static int ensure_ready(void)
{
    int init = 0, fin = 0;
    if (st.ready)
        return 0;
    if (PMPI_Initialized(&init) != MPI_SUCCESS || !init ||
        PMPI_Finalized(&fin) != MPI_SUCCESS || fin)
        return -1;
    fortran_equivalents();
    for (size_t i = 0; i < sizeof predefs / sizeof predefs[0]; i++)
        add_predef(predefs[i].h, predefs[i].a, predefs[i].b);
#ifdef WEAK_LB_UB
    if (&ompi_mpi_lb)
        add_predef((MPI_Datatype)(void *)&ompi_mpi_lb, -1, -1);
    if (&ompi_mpi_ub)
        add_predef((MPI_Datatype)(void *)&ompi_mpi_ub, -1, -1);
#endif
    st.ready = 1;
    return 0;
}

/* ---- Flattening derived datatypes ----------------------------------------------- */

static uint64_t type_size(MPI_Datatype t)
{
    MPI_Count n = 0;
    if (PMPI_Type_size_x(t, &n) != MPI_SUCCESS || n < 0)
        return 0;
    return (uint64_t)n;
}

/* One top-level computation. */
typedef struct {
    sig_entry *memo;        /* signatures of member handles seen so far */
    MPI_Datatype *held;     /* derived handles get_contents returned, freed at the end */
    size_t nheld, cap;
    unsigned long nodes;    /* constructors read */
} walk_ctx;

static const mc_sig *sig_of(MPI_Datatype t, walk_ctx *w, int depth);

/* Appends times x (signature of t). */
static void append_type(mc_sig *s, MPI_Datatype t, uint64_t times, walk_ctx *w, int depth)
{
    const mc_sig *sub = sig_of(t, w, depth);
    if (sub)
        mc_sig_append(s, sub, times);
    else
        mc_sig_append_run(s, MC_T_OPAQUE, 1);
}

/* What get_contents returned. A datatype built by an MPI-4 large-count
 * constructor (MPI_Type_vector_c, ...) keeps its counts in c[] instead of
 * i[], in the same order, except SUBARRAY (MPI-4.0 5.1.13). */
typedef struct {
    int comb;
    const int *iv;
    long ni;
    const MPI_Count *cv;
    long nc;                /* > 0: large-count layout */
    const MPI_Datatype *tv;
    long nt;
} contents;

/* Count argument k (i[k], or c[k] for a large-count constructor); -1 when
 * absent or negative, which MPI forbids. */
static int64_t arg(const contents *c, long k)
{
    if (c->nc > 0)
        return k >= 0 && k < c->nc && c->cv[k] >= 0 ? (int64_t)c->cv[k] : -1;
    return k >= 0 && k < c->ni && c->iv[k] >= 0 ? c->iv[k] : -1;
}

static int64_t mul_or_fail(int64_t a, int64_t b)
{
    int64_t r;
    return a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r) ? -1 : r;
}

/* Builds the signature of one instance of a derived datatype from its
 * constructor (MPI-3.1 4.1.13, Table 4.1 gives each combiner's arrays).
 * Displacements, strides, bounds and extents never matter: the signature is
 * only the sequence of basic types. Returns 0, -1 when unreadable. */
static int flatten(MPI_Datatype t, const contents *c, mc_sig *s, walk_ctx *w, int depth)
{
    int comb = c->comb;
    int64_t n = -1, k0 = arg(c, 0);
    if (comb == MPI_COMBINER_DUP || comb == MPI_COMBINER_RESIZED) {
        n = 1;
    } else if (comb == MPI_COMBINER_CONTIGUOUS) {
        n = k0;
    } else if (comb == MPI_COMBINER_VECTOR || comb == MPI_COMBINER_HVECTOR ||
               comb == COMB_HVECTOR_INTEGER || comb == MPI_COMBINER_INDEXED_BLOCK ||
               comb == MPI_COMBINER_HINDEXED_BLOCK) {
        n = mul_or_fail(k0, arg(c, 1));         /* count blocks of blocklength */
    } else if (comb == MPI_COMBINER_INDEXED || comb == MPI_COMBINER_HINDEXED ||
               comb == COMB_HINDEXED_INTEGER) {
        n = k0 < 0 ? -1 : 0;      /* the sum of the blocklengths */
        for (int64_t i = 0; i < k0 && n >= 0; i++) {
            int64_t b = arg(c, 1 + i);
            if (b < 0 || __builtin_add_overflow(n, b, &n))
                n = -1;
        }
    } else if (comb == MPI_COMBINER_STRUCT || comb == COMB_STRUCT_INTEGER) {
        if (k0 < 0 || c->nt < k0)
            return -1;
        for (int64_t i = 0; i < k0; i++) {
            int64_t b = arg(c, 1 + i);
            if (b < 0)
                return -1;
            append_type(s, c->tv[i], (uint64_t)b, w, depth + 1);
        }
        return 0;
    } else if (comb == MPI_COMBINER_SUBARRAY) {
        /* i: ndims, sizes, subsizes, starts, order; large: i = ndims, order
         * and c = sizes, subsizes, starts. The product of subsizes counts. */
        int64_t nd = c->ni >= 1 ? c->iv[0] : -1, first = c->nc > 0 ? nd : 1 + nd;
        n = nd < 0 ? -1 : 1;
        for (int64_t i = 0; i < nd && n >= 0; i++)
            n = mul_or_fail(n, arg(c, first + i));
    } else if (comb == MPI_COMBINER_DARRAY) {
        /* How many old types this rank's block holds depends on the
         * distribution; the sizes say it exactly, since a darray never
         * splits an instance of its old type. */
        uint64_t whole = type_size(t), part = c->nt >= 1 ? type_size(c->tv[0]) : 0;
        if (c->nt >= 1 && part == 0 && whole == 0)
            n = 0;
        else if (part > 0 && whole % part == 0 && whole / part <= INT64_MAX)
            n = (int64_t)(whole / part);
    } else {
        return -1;      /* F90 parameterized types, or a combiner this code does not know */
    }
    if (n < 0 || c->nt < 1)
        return -1;
    append_type(s, c->tv[0], (uint64_t)n, w, depth + 1);
    return 0;
}

/* MPI_Type_get_envelope, or its MPI-4 large-count form, which is the only one
 * that works on datatypes built by large-count constructors (MPICH fails the
 * plain one for them, and its default error handler would end the program). */
static int envelope(MPI_Datatype t, long *ni, long *na, long *nc, long *nt, int *comb)
{
#if MPI_VERSION >= 4
    MPI_Count i, a, c, n;
    if (PMPI_Type_get_envelope_c(t, &i, &a, &c, &n, comb) != MPI_SUCCESS)
        return -1;
    *ni = (long)i, *na = (long)a, *nc = (long)c, *nt = (long)n;
#else
    int i, a, n;
    if (PMPI_Type_get_envelope(t, &i, &a, &n, comb) != MPI_SUCCESS)
        return -1;
    *ni = i, *na = a, *nc = 0, *nt = n;
#endif
    return 0;
}

/* Keeps the derived datatypes get_contents returned: they are new references
 * the caller must free (MPI-3.1 4.1.13), predefined ones are not. They are
 * freed only when the whole computation ends: Open MPI returns new duplicates,
 * and one freed early could give its address to a later duplicate that the
 * memo would then mistake for it. */
static void hold_types(walk_ctx *w, const MPI_Datatype *tv, long nt)
{
    for (long i = 0; i < nt; i++) {
        long a, b, c, d;
        int comb;
        if (find(st.predefined, tv[i]) || envelope(tv[i], &a, &b, &c, &d, &comb) != 0 ||
            comb == MPI_COMBINER_NAMED)
            continue;
        if (w->nheld == w->cap) {
            size_t cap = w->cap ? 2 * w->cap : 16;
            MPI_Datatype *h = mc_realloc(w->held, cap * sizeof *h);
            if (!h)
                continue;   /* leaks one reference rather than risk a wrong answer */
            w->held = h;
            w->cap = cap;
        }
        w->held[w->nheld++] = tv[i];
    }
}

static void walk_done(walk_ctx *w)
{
    free_table(&w->memo);
    for (size_t i = 0; i < w->nheld; i++)
        PMPI_Type_free(&w->held[i]);
    free(w->held);
}

/* Arrays longer than this are not read (a struct of 2^24 members is not a
 * real program's). */
#define MAX_ARGS (1L << 24)

/* Fills s with the signature of a handle not in the predefined table. */
static void compute(MPI_Datatype t, mc_sig *s, walk_ctx *w, int depth)
{
    long ni = 0, na = 0, nc = 0, nt = 0;
    int comb = 0, ok = 0;
    if (depth <= MAX_DEPTH && ++w->nodes <= MAX_NODES &&
        envelope(t, &ni, &na, &nc, &nt, &comb) == 0 && comb != MPI_COMBINER_NAMED &&
        ni <= MAX_ARGS && na <= MAX_ARGS && nc <= MAX_ARGS && nt <= MAX_ARGS) {
        int *iv = mc_malloc((ni > 0 ? (size_t)ni : 1) * sizeof *iv);
        MPI_Aint *av = mc_malloc((na > 0 ? (size_t)na : 1) * sizeof *av);
        MPI_Count *cv = mc_malloc((nc > 0 ? (size_t)nc : 1) * sizeof *cv);
        MPI_Datatype *tv = mc_malloc((nt > 0 ? (size_t)nt : 1) * sizeof *tv);
        int rc = -1;
        if (iv && av && cv && tv) {
#if MPI_VERSION >= 4
            rc = PMPI_Type_get_contents_c(t, ni, na, nc, nt, iv, av, cv, tv);
#else
            rc = PMPI_Type_get_contents(t, (int)ni, (int)na, (int)nt, iv, av, tv);
#endif
        }
        if (rc == MPI_SUCCESS) {
            hold_types(w, tv, nt);
            contents c = { comb, iv, ni, cv, nc, tv, nt };
            mc_sig part;
            mc_sig_init(&part);
            if (flatten(t, &c, &part, w, depth) == 0) {
                mc_sig_append(s, &part, 1);
                ok = 1;
            }
            mc_sig_free(&part);
        }
        free(iv);
        free(av);
        free(cv);
        free(tv);
    }
    /* Unreadable, too deep, over budget, or a predefined type the table lacks. */
    if (!ok)
        mc_sig_append_run(s, MC_T_OPAQUE, 1);
}

/* The signature of t, owned by a table. Member datatypes go to the memo,
 * which lives for one top-level computation only: they are handles MPI gave
 * back from get_contents, and nothing tells this module when MPI frees them,
 * so they must not outlive it in the cache. */
static const mc_sig *sig_of(MPI_Datatype t, walk_ctx *w, int depth)
{
    sig_entry *e = find(st.predefined, t);
    if (!e)
        e = find(st.derived, t);    /* live: the application has not freed it */
    if (!e)
        e = find(w->memo, t);
    if (e)
        return &e->sig;
    if (!(e = new_entry(t)))
        return NULL;
    compute(t, &e->sig, w, depth);
    HASH_ADD(hh, w->memo, key, sizeof e->key, e);
    return &e->sig;
}

/* The cached signature of t, computed on first use; NULL when unusable.
 * Under the lock. */
static const mc_sig *lookup(MPI_Datatype t)
{
    if (ensure_ready() != 0 || t == MPI_DATATYPE_NULL)
        return NULL;
    sig_entry *e = find(st.predefined, t);
    if (!e)
        e = find(st.derived, t);
    if (!e) {
        walk_ctx w = { 0 };
        if (!(e = new_entry(t)))
            return NULL;
        compute(t, &e->sig, &w, 0);
        walk_done(&w);
        HASH_ADD(hh, st.derived, key, sizeof e->key, e);
    }
    if (!e->sized) {
        e->sig.size = type_size(t);
        e->sized = 1;
    }
    return &e->sig;
}

/* ---- API --------------------------------------------------------------------- */

void mc_typesig_fini(void)
{
    pthread_mutex_lock(&st.lock);
    free_table(&st.derived);
    free_table(&st.predefined);
    st.ready = 0;
    pthread_mutex_unlock(&st.lock);
}

int mc_typesig_get(MPI_Datatype t, mc_sig *out)
{
    pthread_mutex_lock(&st.lock);
    const mc_sig *s = lookup(t);
    if (s)
        mc_sig_copy(out, s);
    else
        mc_sig_init(out);
    pthread_mutex_unlock(&st.lock);
    return s ? 0 : -1;
}

int mc_typesig_msg(MPI_Datatype t, uint64_t count, mc_sig_msg *m)
{
    pthread_mutex_lock(&st.lock);
    const mc_sig *s = lookup(t);
    if (s)
        mc_sig_msg_make(m, s, count);
    pthread_mutex_unlock(&st.lock);
    if (s)
        return 0;
    mc_sig unknown;
    mc_sig_init(&unknown);
    mc_sig_append_run(&unknown, MC_T_OPAQUE, 1);
    mc_sig_msg_make(m, &unknown, count);
    mc_sig_free(&unknown);
    return -1;
}

void mc_typesig_compare(const mc_sig_msg *msg, MPI_Datatype rtype, uint64_t rcount,
                        unsigned opts, mc_sig_result *res)
{
    pthread_mutex_lock(&st.lock);
    const mc_sig *r = lookup(rtype);
    if (r) {
        mc_sig_compare(msg, r, rcount, opts, res);
    } else {
        memset(res, 0, sizeof *res);
        res->verdict = MC_SIG_UNKNOWN;
        res->index = -1;
    }
    pthread_mutex_unlock(&st.lock);
}

int mc_typesig_total(MPI_Datatype t, uint64_t count, uint64_t *hash, uint64_t *nelems,
                     uint32_t *flags)
{
    pthread_mutex_lock(&st.lock);
    const mc_sig *s = lookup(t);
    *hash = *nelems = 0;
    *flags = MC_SIG_OPAQUE;
    if (s) {
        *hash = mc_sig_repeat_hash(s->hash, s->nelems, count);
        *flags = s->flags;
        if (__builtin_mul_overflow(s->nelems, count, nelems))
            *flags |= MC_SIG_OVERFLOW;
    }
    pthread_mutex_unlock(&st.lock);
    return s ? 0 : -1;
}

char *mc_typesig_render(MPI_Datatype t, uint64_t count, char *buf, size_t len)
{
    pthread_mutex_lock(&st.lock);
    const mc_sig *s = lookup(t);
    if (s)
        mc_sig_render(s, count, buf, len);
    else if (len > 0)
        snprintf(buf, len, "%s", "(unknown datatype)");
    pthread_mutex_unlock(&st.lock);
    return buf;
}

void mc_typesig_forget(MPI_Datatype t)
{
    mc_typecache_forget_all();      /* the handle may come back as another type */
    pthread_mutex_lock(&st.lock);
    sig_entry *e = find(st.derived, t);
    if (e) {
        HASH_DEL(st.derived, e);
        mc_sig_free(&e->sig);
        free(e);
    }
    pthread_mutex_unlock(&st.lock);
}

size_t mc_typesig_cached(void)
{
    pthread_mutex_lock(&st.lock);
    size_t n = HASH_COUNT(st.derived);
    pthread_mutex_unlock(&st.lock);
    return n;
}
