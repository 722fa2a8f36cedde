/*
 * bufsum.c - checksums of the bytes a (count, datatype) buffer covers
 * (bufsum.h).
 */
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY     /* XXH3_state_t on the stack */
#include <xxhash.h>
/* The large buffers' hash through xxHash's dispatch to the processor's
 * widest vector unit: the same values as XXH3_64bits (a sender's and a
 * receiver's sums compare whichever each used), about 2x faster on a 4 MiB
 * buffer here (AVX2: 27 to 45 GB/s against 19.5, Debian's SSE2 build),
 * and the checksums of large send buffers are most of what --check-buffers
 * costs a bandwidth-bound program. */
#if defined(HAVE_XXH_X86DISPATCH_H) && defined(HAVE_XXH3_64BITS_DISPATCH)
#include <xxh_x86dispatch.h>
#define HASH(p, n) XXH3_64bits_dispatch((p), (n))
#define HASH_UPDATE(st, p, n) XXH3_64bits_update_dispatch((st), (p), (n))
#else
#define HASH(p, n) XXH3_64bits((p), (n))
#define HASH_UPDATE(st, p, n) XXH3_64bits_update((st), (p), (n))
#endif
#include "bufsum.h"
#include "typecache.h"
#include "skipped.h"

/* Packed bytes per PMPI_Pack: large enough that the calls cost little next
 * to the copying, small enough for the stack. */
#define CHUNK 8192

MPI_Count mc_bufsum_bytes(MPI_Count count, MPI_Datatype t)
{
    MPI_Count size;
    if (count < 0 || PMPI_Type_size_x(t, &size) != MPI_SUCCESS || size == MPI_UNDEFINED)
        return -1;
    return count * size;
}

/* XXH3 of more than 240 bytes returns with the upper halves of the vector
 * registers still in use (Debian 12's libxxhash 0.8.1, XXH3_64bits and its
 * dispatch alike: XGETBV 1 reports the AVX and ZMM_Hi256 states, and no
 * VZEROUPPER cleared them). Every legacy-SSE instruction the program runs
 * after a checksum then pays for the mixed state until something clears
 * it: hpcc's HPL, whose reference-BLAS dgemm is SSE2 code, took 0.65 to
 * 0.74 s in fast mode against 0.17 s with --check-buffers=no, and a loop
 * of SSE2 additions 1.5 to 4 times as long (docs/performance.md, "The
 * vector registers after a checksum"). So every checksum leaves them clean,
 * as compiled AVX code does before it returns. */
static void vector_state_clean(void)
{
#if defined(__x86_64__) || defined(__i386__)
    static int avx = -1;        /* the processor and the kernel support AVX */
    int has = __atomic_load_n(&avx, __ATOMIC_RELAXED);
    if (has < 0) {
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx") != 0;
        __atomic_store_n(&avx, has, __ATOMIC_RELAXED);
    }
    if (has)
        __asm__ volatile("vzeroupper");
#endif
}

/* Packs count elements of t from buf in pieces and feeds them to st. */
static int sum_packed(XXH3_state_t *st, const char *buf, MPI_Count count, MPI_Datatype t,
                      MPI_Count size, MPI_Aint extent)
{
#ifdef MPICH
    /* MPICH 4.0's MPI_Pack refuses a NULL inbuf, which MPI_BOTTOM is there
     * (a buffer of absolute addresses), and raises that on MPI_COMM_SELF,
     * fatal by default: such a buffer is left without a checksum. */
    if (buf == NULL)
        return -1;
#endif
    char stack[CHUNK];
    char *out = stack;
    MPI_Count per = size > 0 && size <= CHUNK ? CHUNK / size : 1;
    size_t outlen = CHUNK;
    if (size > CHUNK) {
        /* One element is larger than the piece: pack one at a time. */
        out = mc_malloc((size_t)size);
        if (!out)
            return -1;
        outlen = (size_t)size;
    }
    int rc = 0;
    for (MPI_Count done = 0; done < count && rc == 0; ) {
        MPI_Count n = count - done < per ? count - done : per;
        int pos = 0;
        if (n > INT32_MAX || outlen > INT32_MAX
            || PMPI_Pack(buf + done * extent, (int)n, t, out, (int)outlen, &pos, MPI_COMM_SELF) != MPI_SUCCESS)
            rc = -1;
        else
            HASH_UPDATE(st, out, (size_t)pos);
        vector_state_clean();   /* before MPI's packing code runs again */
        done += n;
    }
    if (out != stack)
        free(out);
    return rc;
}

int mc_bufsum_region(const mc_region *r, uint64_t *sum)
{
    int rc = 0;
    if (r->contig) {
        *sum = HASH((const char *)(uintptr_t)r->lo, (size_t)(r->hi - r->lo));
    } else {
        XXH3_state_t st;
        XXH3_64bits_reset(&st);
        rc = sum_packed(&st, r->buf, r->count, r->type, r->size, r->extent);
        if (rc == 0)
            *sum = XXH3_64bits_digest(&st);
    }
    vector_state_clean();
    return rc;
}

int mc_bufsum(const void *buf, MPI_Count count, MPI_Datatype t, uint64_t *sum)
{
    mc_region r;
    if (count > 0 && mc_region_of(buf, count, t, &r))
        return mc_bufsum_region(&r, sum);
    if (count > 0 && mc_bufsum_bytes(1, t) != 0)
        return -1;      /* MPI cannot say what the buffer covers */
    *sum = XXH3_64bits(NULL, 0);    /* no data */
    return 0;
}

int mc_bufsum_blocks(const void *base, MPI_Datatype t, const mc_bufblock *b, int n, uint64_t *sum)
{
    /* The blocks' own checksums chained: a block moved or changed changes
     * the result, and each block is still hashed in place when contiguous. */
    uint64_t acc = XXH3_64bits(&n, sizeof n);
    for (int k = 0; k < n; k++) {
        uint64_t one;
        if (mc_bufsum((const char *)base + b[k].disp, b[k].count, t, &one) != 0)
            return -1;
        acc = XXH3_64bits_withSeed(&one, sizeof one, acc);
    }
    *sum = acc;
    return 0;
}

/* ---- overlap ---------------------------------------------------------------- */

/* Spans compared byte by byte at most (two masks of this many bytes). */
#define OVERLAP_MAX_SPAN ((MPI_Aint)64 << 20)

int mc_region_of(const void *buf, MPI_Count count, MPI_Datatype t, mc_region *r)
{
    mc_type_extents x;
    if (count <= 0 || t == MPI_DATATYPE_NULL || mc_typecache_extents(t, &x) != 0
        || x.size <= 0 || x.size == MPI_UNDEFINED)
        return 0;
    MPI_Count size = x.size, tlb = x.true_lb, textent = x.true_extent, extent = x.extent;
    MPI_Count step = (count - 1) * extent;
    r->buf = buf;
    r->count = count;
    r->type = t;
    r->lo = (MPI_Aint)((uintptr_t)buf + (uintptr_t)tlb + (uintptr_t)(step < 0 ? step : 0));
    r->hi = (MPI_Aint)((uintptr_t)buf + (uintptr_t)tlb + (uintptr_t)textent + (uintptr_t)(step > 0 ? step : 0));
    r->contig = size == textent && (count == 1 || extent == size);
    r->size = size;
    r->extent = (MPI_Aint)extent;
    return 1;
}

/* Marks in mask (which stands for [base, base + len)) the data bytes of r. */
static int mark(unsigned char *mask, MPI_Aint base, const mc_region *r)
{
    if (r->contig) {
        memset(mask + (r->lo - base), 1, (size_t)(r->hi - r->lo));
        return 0;
    }
    MPI_Count bytes = mc_bufsum_bytes(r->count, r->type);
    if (bytes <= 0 || bytes > INT32_MAX || r->count > INT32_MAX)
        return -1;
    unsigned char *ones = mc_malloc((size_t)bytes);
    if (!ones)
        return -1;
    memset(ones, 1, (size_t)bytes);
    int pos = 0;
    char *out = (char *)mask + ((MPI_Aint)(uintptr_t)r->buf - base);
    int rc = PMPI_Unpack(ones, (int)bytes, &pos, out, (int)r->count, r->type, MPI_COMM_SELF);
    free(ones);
    return rc == MPI_SUCCESS ? 0 : -1;
}

int mc_region_overlap(const mc_region *a, const mc_region *b, MPI_Aint *bytes)
{
    MPI_Aint lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
    if (lo >= hi)
        return 0;
    if (a->contig && b->contig) {
        if (bytes)
            *bytes = hi - lo;
        return 1;
    }
    /* The same elements of the same datatype at the same address share all
     * their data bytes: no masks. A window of receives into one buffer
     * (OSU's osu_bw with a vector type: 64 at once) compared each pair
     * through two masks of the whole span, 8 ms a message. */
    if (a->buf == b->buf && a->type == b->type && a->count == b->count && a->lo == b->lo
        && a->hi == b->hi && a->size == b->size) {
        if (bytes)
            *bytes = (MPI_Aint)(a->size * a->count);
        return 1;
    }
    MPI_Aint base = a->lo < b->lo ? a->lo : b->lo;
    MPI_Aint top = a->hi > b->hi ? a->hi : b->hi;
    if (top - base > OVERLAP_MAX_SPAN)
        return -1;
    unsigned char *ma = mc_calloc(1, (size_t)(top - base)), *mb = mc_calloc(1, (size_t)(top - base));
    int result = -1;
    if (ma && mb && mark(ma, base, a) == 0 && mark(mb, base, b) == 0) {
        MPI_Aint common = 0;
        for (MPI_Aint i = lo - base; i < hi - base; i++)
            common += ma[i] & mb[i];
        result = common > 0;
        if (bytes)
            *bytes = common;
    }
    free(ma);
    free(mb);
    return result;
}
