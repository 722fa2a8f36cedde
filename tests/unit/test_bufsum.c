/*
 * test_bufsum.c - src/match/bufsum.c against the real MPI library, run as an
 * MPI singleton (Open MPI as root needs OMPI_ALLOW_RUN_AS_ROOT=1
 * OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1).
 *
 * - A sender and a receiver compare checksums whichever way each took
 *   them: a buffer hashed in place (contiguous) and the same bytes
 *   gathered through a strided datatype (packed in pieces, streamed) must
 *   give the same sum.
 * - Two regions overlap by the data bytes their type maps share.
 * - A checksum leaves the vector registers' upper halves clean: libxxhash
 *   returns with them in use, and every SSE instruction of the program
 *   after it ran slower (hpcc's HPL four times as long). Read with XGETBV
 *   1 (which state components are in use); where the processor cannot
 *   report that, this part is skipped and the program exits 77.
 */
#include <check.h>
#include "run_suite.h"
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "bufsum.h"
#include "typecache.h"

#define N (1 << 16)     /* ints: 256 KiB, far above XXH3's short-input path */

START_TEST(test_packed_equals_in_place)
{
    int *strided = malloc(2 * N * sizeof(int)), *dense = malloc(N * sizeof(int));
    ck_assert_ptr_nonnull(strided);
    ck_assert_ptr_nonnull(dense);
    for (int i = 0; i < 2 * N; i++)
        strided[i] = i % 2 ? -1 : i * 7;
    for (int i = 0; i < N; i++)
        dense[i] = strided[2 * i];
    MPI_Datatype every_other;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    uint64_t a = 0, b = 1;
    ck_assert_int_eq(mc_bufsum(dense, N, MPI_INT, &a), 0);
    ck_assert_int_eq(mc_bufsum(strided, 1, every_other, &b), 0);
    ck_assert_uint_eq(a, b);
    /* The gaps are not data: changing them changes nothing. */
    strided[1] = 12345;
    ck_assert_int_eq(mc_bufsum(strided, 1, every_other, &b), 0);
    ck_assert_uint_eq(a, b);
    /* A data byte is. */
    strided[2] ^= 1;
    ck_assert_int_eq(mc_bufsum(strided, 1, every_other, &b), 0);
    ck_assert_uint_ne(a, b);
    MPI_Type_free(&every_other);
    mc_typecache_forget_all();  /* as the MPI_Type_free wrapper does: MPI may reuse the handle */
    free(strided);
    free(dense);
}
END_TEST

#if defined(__x86_64__) || defined(__i386__)
/* Whether XGETBV with ECX=1 (XINUSE) is there to ask. */
static int xinuse_supported(void)
{
    unsigned a, b, c, d;
    if (!__builtin_cpu_supports("avx") || __get_cpuid_max(0, NULL) < 0xd)
        return 0;
    __cpuid_count(0xd, 1, a, b, c, d);
    return (a >> 2) & 1;
}

static uint64_t xinuse(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    return ((uint64_t)hi << 32) | lo;
}

/* The AVX state (upper halves of YMM0-15) and ZMM_Hi256 (of ZMM0-15). */
#define DIRTY_UPPER ((1u << 2) | (1u << 6))

START_TEST(test_upper_state_clean)
{
    int *strided = malloc(2 * N * sizeof(int));
    ck_assert_ptr_nonnull(strided);
    for (int i = 0; i < 2 * N; i++)
        strided[i] = i;
    MPI_Datatype every_other;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    uint64_t sum;
    /* In place (one XXH3 call) and streamed (the packed path). */
    ck_assert_int_eq(mc_bufsum(strided, 2 * N, MPI_INT, &sum), 0);
    ck_assert_uint_eq(xinuse() & DIRTY_UPPER, 0);
    ck_assert_int_eq(mc_bufsum(strided, 1, every_other, &sum), 0);
    ck_assert_uint_eq(xinuse() & DIRTY_UPPER, 0);
    MPI_Type_free(&every_other);
    free(strided);
}
END_TEST
#endif

/* Overlap of data bytes through the type maps: the same elements at the
 * same address share all their bytes (found without masks), the odd ints
 * share none with the even ones, and the even ints shifted by one element
 * share all but one. */
START_TEST(test_region_overlap)
{
    int buf[32];
    MPI_Datatype every_other;
    MPI_Type_vector(8, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    mc_region a, same, odd, shifted;
    ck_assert(mc_region_of(buf, 1, every_other, &a));
    ck_assert(mc_region_of(buf, 1, every_other, &same));
    ck_assert(mc_region_of(buf + 1, 1, every_other, &odd));
    ck_assert(mc_region_of(buf + 2, 1, every_other, &shifted));
    MPI_Aint bytes = 0;
    ck_assert_int_eq(mc_region_overlap(&a, &same, &bytes), 1);
    ck_assert_int_eq(bytes, 8 * (MPI_Aint)sizeof(int));
    ck_assert_int_eq(mc_region_overlap(&a, &odd, &bytes), 0);
    ck_assert_int_eq(mc_region_overlap(&a, &shifted, &bytes), 1);
    ck_assert_int_eq(bytes, 7 * (MPI_Aint)sizeof(int));
    MPI_Type_free(&every_other);
    mc_typecache_forget_all();
}
END_TEST

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    Suite *s = suite_create("bufsum");
    TCase *tc = tcase_create("mpi");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_packed_equals_in_place);
    tcase_add_test(tc, test_region_overlap);
    int skipped = 1;
#if defined(__x86_64__) || defined(__i386__)
    if (xinuse_supported()) {
        tcase_add_test(tc, test_upper_state_clean);
        skipped = 0;
    }
#endif
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_NOFORK);
    MPI_Finalize();
    if (failed)
        return EXIT_FAILURE;
    if (skipped) {
        printf("SKIP: the vector-state test: this processor cannot report which vector "
               "registers are in use (no AVX, or no XGETBV with ECX=1)\n");
        return 77;
    }
    return EXIT_SUCCESS;
}
