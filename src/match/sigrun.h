/*
 * sigrun.h - MPI type signatures as canonical run-length sequences, their
 * hashes, and the sender/receiver comparison. No MPI here: typesig.c turns
 * datatype handles into these signatures; everything below is unit-tested
 * without MPI (tests/unit/test_sigrun.c). docs/type-matching.md has the rules.
 *
 * RATIONALE: type matching compares type signatures, the sequence of basic
 * types (MPI-3.1 4.1.11: "Type matching is defined according to the type
 * signature of the corresponding datatypes, that is, the sequence of basic
 * type components"). A signature is kept as runs (basic id, count) with
 * adjacent equal ids merged, so vector(2,3,..,MPI_INT), contiguous(6,MPI_INT)
 * and 3 x MPI_2INT all become the single run (MPI_INT, 6).
 *
 * The hash is a polynomial hash of the expanded element sequence modulo the
 * prime 2^61-1. It depends only on the elements, never on how they were
 * grouped into runs, and it composes: the hash of a concatenation, of a run
 * of n equal elements, and of a sequence repeated k times are each computed
 * in O(log n) without expanding anything. So a receiver can hash the first L
 * elements of "its type repeated count times" and compare with the sender's
 * hash of the whole message. Different hashes prove different sequences (a
 * mismatch report from hashes is never false); equal hashes of different
 * sequences (probability about length/2^61) can only hide an error.
 */
#ifndef MPICHECK_SIGRUN_H
#define MPICHECK_SIGRUN_H

#include <stddef.h>
#include <stdint.h>

/* Basic datatype ids. They travel between ranks: append only, never reorder.
 * OPAQUE stands for any predefined type the checker does not know; it never
 * produces a mismatch report. Pair types (MPI_2INT, MPI_FLOAT_INT, ...) have
 * no id: they expand to their two members. */
#define MC_SIG_BASIC_TYPES(X) \
    X(OPAQUE, "(unknown predefined type)") X(PACKED, "MPI_PACKED") X(BYTE, "MPI_BYTE") \
    X(CHAR, "MPI_CHAR") X(SIGNED_CHAR, "MPI_SIGNED_CHAR") X(UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR") \
    X(WCHAR, "MPI_WCHAR") X(SHORT, "MPI_SHORT") X(UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT") \
    X(INT, "MPI_INT") X(UNSIGNED, "MPI_UNSIGNED") X(LONG, "MPI_LONG") \
    X(UNSIGNED_LONG, "MPI_UNSIGNED_LONG") X(LONG_LONG, "MPI_LONG_LONG") \
    X(UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG") X(FLOAT, "MPI_FLOAT") \
    X(DOUBLE, "MPI_DOUBLE") X(LONG_DOUBLE, "MPI_LONG_DOUBLE") \
    X(INT8_T, "MPI_INT8_T") X(INT16_T, "MPI_INT16_T") X(INT32_T, "MPI_INT32_T") \
    X(INT64_T, "MPI_INT64_T") X(UINT8_T, "MPI_UINT8_T") X(UINT16_T, "MPI_UINT16_T") \
    X(UINT32_T, "MPI_UINT32_T") X(UINT64_T, "MPI_UINT64_T") X(C_BOOL, "MPI_C_BOOL") \
    X(C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX") X(C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX") \
    X(C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX") X(AINT, "MPI_AINT") \
    X(OFFSET, "MPI_OFFSET") X(COUNT, "MPI_COUNT") X(CXX_BOOL, "MPI_CXX_BOOL") \
    X(CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX") X(CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX") \
    X(CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX") X(CHARACTER, "MPI_CHARACTER") \
    X(LOGICAL, "MPI_LOGICAL") X(INTEGER, "MPI_INTEGER") X(REAL, "MPI_REAL") \
    X(DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION") X(COMPLEX, "MPI_COMPLEX") \
    X(DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX") X(INTEGER1, "MPI_INTEGER1") \
    X(INTEGER2, "MPI_INTEGER2") X(INTEGER4, "MPI_INTEGER4") X(INTEGER8, "MPI_INTEGER8") \
    X(INTEGER16, "MPI_INTEGER16") X(REAL2, "MPI_REAL2") X(REAL4, "MPI_REAL4") \
    X(REAL8, "MPI_REAL8") X(REAL16, "MPI_REAL16") X(COMPLEX4, "MPI_COMPLEX4") \
    X(COMPLEX8, "MPI_COMPLEX8") X(COMPLEX16, "MPI_COMPLEX16") X(COMPLEX32, "MPI_COMPLEX32") \
    X(LOGICAL1, "MPI_LOGICAL1") X(LOGICAL2, "MPI_LOGICAL2") X(LOGICAL4, "MPI_LOGICAL4") \
    X(LOGICAL8, "MPI_LOGICAL8") X(C_FLOAT16, "MPIX_C_FLOAT16")

enum {
#define MC_SIG_ENUM_(id, name) MC_T_##id,
    MC_SIG_BASIC_TYPES(MC_SIG_ENUM_)
#undef MC_SIG_ENUM_
    MC_T_COUNT_     /* number of ids; not an id */
};

/* "MPI_INT"; "(invalid id)" for an id out of range. */
const char *mc_sig_id_name(unsigned id);

/* From now on basic type id matches as id as does (hashes and compares as
 * it; runs and names keep id). For the Fortran types and the C types of the
 * same kind and size (typesig.c); set before any signature is made. */
void mc_sig_set_same(unsigned id, unsigned as);

/* One run: n consecutive elements of basic type id. Fixed-width fields and an
 * explicit zero pad: runs are sent as raw bytes in envelopes. */
typedef struct {
    uint32_t id;
    uint32_t pad_;
    uint64_t n;
} mc_sig_run;

/* Signature flags. */
enum {
    MC_SIG_LONG = 1u << 0,      /* more than MC_SIG_MAX_RUNS runs: runs dropped, hash and nelems exact */
    MC_SIG_OPAQUE = 1u << 1,    /* holds elements of unknown types: never a mismatch */
    MC_SIG_PACKED = 1u << 2,    /* holds MPI_PACKED: matching by bytes only */
    MC_SIG_OVERFLOW = 1u << 3   /* element count overflowed 64 bits: undecidable */
};

/* Beyond this many runs a signature keeps only hash and element count, so no
 * datatype makes the checker store or walk an unbounded list. */
#define MC_SIG_MAX_RUNS 4096
/* Work cap of one comparison walk, in run steps; past it the hashes decide. */
#define MC_SIG_MAX_STEPS 1000000u

/* The signature of one instance of a datatype. */
typedef struct {
    uint64_t hash;      /* polynomial hash of the element sequence */
    uint64_t pw;        /* B^nelems mod p: what appending this sequence multiplies a hash by */
    uint64_t nelems;    /* number of basic elements */
    uint64_t size;      /* bytes of one instance (MPI_Type_size); set by the caller, 0 if unknown */
    uint32_t flags;     /* MC_SIG_* */
    uint32_t nruns;     /* canonical runs (0 when MC_SIG_LONG) */
    uint32_t cap;       /* allocated runs */
    mc_sig_run *runs;
} mc_sig;

/* An empty signature (no elements: what MPI_LB, MPI_UB and zero counts give). */
void mc_sig_init(mc_sig *s);
void mc_sig_free(mc_sig *s);
/* Deep copy; returns 0, -1 when out of memory (dst is then LONG, still exact). */
int mc_sig_copy(mc_sig *dst, const mc_sig *src);

/* Appends n elements of basic type id, merging with the last run. MC_T_OPAQUE
 * and MC_T_PACKED set their flags; an id out of range counts as MC_T_OPAQUE. */
void mc_sig_append_run(mc_sig *s, unsigned id, uint64_t n);
/* Appends src repeated times times (the signature of times x src); merges at
 * every boundary. Costs O(log times) for the hash and at most MC_SIG_MAX_RUNS
 * run copies: a result that would exceed that becomes MC_SIG_LONG. src must
 * not be s (its runs may move). */
void mc_sig_append(mc_sig *s, const mc_sig *src, uint64_t times);

/* The hash of a sequence of nelems elements with hash h, repeated count times:
 * every rank of a collective can hash its whole buffer's signature, and
 * 2 x MPI_INT, 1 x MPI_2INT and contiguous(2, MPI_INT) hash alike. */
uint64_t mc_sig_repeat_hash(uint64_t h, uint64_t nelems, uint64_t count);

/* What the sender puts in an envelope: the first MC_SIG_INLINE_RUNS runs
 * inline, so most receivers compare run by run and can say where a mismatch
 * is; longer signatures are compared by hash. */
#define MC_SIG_INLINE_RUNS 8
typedef struct {
    uint64_t hash;      /* of one instance of the send type */
    uint64_t nelems;    /* elements in one instance */
    uint64_t size;      /* bytes in one instance */
    uint64_t count;     /* instances sent */
    uint32_t flags;     /* MC_SIG_* of the send type */
    uint32_t nruns;     /* runs in one instance (the first min(nruns, 8) are inline); 0 if LONG */
    mc_sig_run runs[MC_SIG_INLINE_RUNS];
} mc_sig_msg;

/* 168 bytes, no implicit padding: sent as raw bytes between ranks. */
_Static_assert(sizeof(mc_sig_msg) == 40 + 16 * MC_SIG_INLINE_RUNS, "mc_sig_msg has padding");

/* Fills m for count x s; unused bytes are zero (the struct goes on the wire). */
void mc_sig_msg_make(mc_sig_msg *m, const mc_sig *s, uint64_t count);

/* Verdicts of a comparison. */
typedef enum {
    MC_SIG_MATCH = 0,   /* the message's signature is a prefix of the receive's */
    MC_SIG_TRUNCATED,   /* types agree but the message is longer than the receive buffer */
    MC_SIG_MISMATCH,    /* the signatures differ within the message: erroneous program */
    MC_SIG_UNKNOWN      /* not decidable (unknown types, huge signatures): never report */
} mc_sig_verdict;

/* Comparison options. */
enum {
    /* Not the standard (MPI-3.1 3.3.1 Example 3.2 is erroneous): accept a
     * signature made only of MPI_BYTE against any other by byte count. For a
     * lenient mode; off by default. */
    MC_SIGCMP_LAX_BYTE = 1u << 0
};

typedef struct {
    mc_sig_verdict verdict;
    uint64_t msg_elems, recv_elems;     /* elements sent; elements the receive can hold */
    uint64_t msg_bytes, recv_bytes;     /* the same in bytes (0 when sizes are unknown) */
    int bytes_rule;                     /* 1: decided by bytes (MPI_PACKED, LAX_BYTE, unknown types) */
    /* MISMATCH: first differing element (0-based), or -1 when only the hashes
     * tell; then the difference is at or after element `after`. */
    int64_t index;
    uint64_t after;
    unsigned msg_id, recv_id;           /* MISMATCH with index >= 0: the basic types there */
} mc_sig_result;

/* The receiver's check: is the message (msg) a prefix of recv_count x recv?
 * recv->size should hold the receive type's size in bytes. Order: MPI_PACKED
 * on either side compares bytes only; otherwise the first min(message,
 * receive) elements are compared (hash equality, single runs, a run walk,
 * then prefix hashes); a mismatch there wins over truncation, which MPI
 * itself would report. */
void mc_sig_compare(const mc_sig_msg *msg, const mc_sig *recv, uint64_t recv_count,
                    unsigned opts, mc_sig_result *res);

/* "12 MPI_INT", "3 x {MPI_INT, 2 MPI_DOUBLE}", "nothing (0 elements)".
 * Writes at most len bytes (always terminated when len > 0); returns buf. */
char *mc_sig_render(const mc_sig *s, uint64_t count, char *buf, size_t len);
/* The same for a received envelope (runs past the inline ones show as "..."). */
char *mc_sig_msg_render(const mc_sig_msg *m, char *buf, size_t len);
/* One sentence on a TRUNCATED or MISMATCH result, for the report message:
 * "element 1 of the message is MPI_DOUBLE where the receive expects MPI_INT". */
char *mc_sig_result_describe(const mc_sig_result *r, char *buf, size_t len);

#endif
