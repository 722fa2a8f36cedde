/*
 * test_stack.c - unit tests of src/report/stack.c (capture and resolution).
 *
 * Compile with -g (meant for -O0, also passes at -O2): the assertions name
 * this file's functions and lines. stack.c is linked into this executable, so its default self range
 * would be the whole executable; the fixture sets an empty one (skip nothing).
 */
#define _GNU_SOURCE
#include <check.h>
#include "run_suite.h"
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stack.h"

#define MAXF 64

/* Captures and stores the line of its mc_stack_capture call in *call_line
 * (per caller: the threads test calls it concurrently).
 * The call and __LINE__ share a line: that is the line DWARF gives the call
 * instruction. noinline/noclone keep the frame and the symbol name intact. */
__attribute__((noinline, noclone))
size_t capture_here(uintptr_t *pcs, size_t max, int *call_line)
{
    size_t n;
    *call_line = __LINE__; n = mc_stack_capture(pcs, max);
    __asm__ volatile("" ::: "memory"); /* no tail call (-O2): keep our frame */
    return n;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static void skip_nothing(void)
{
    mc_stack_set_self_range(0, 0);
}

START_TEST(test_capture_resolves_call_site)
{
    uintptr_t pcs[MAXF];
    mc_frame fr[MAXF];
    int call_line;
    size_t n = capture_here(pcs, MAXF, &call_line);

    ck_assert_uint_gt(n, 1);
    mc_stack_resolve(pcs, n, fr);
    /* mc_stack_capture leaves out its own and libunwind's frames even with
     * an empty self range, so the call site is frame 0 exactly. */
    ck_assert_ptr_nonnull(fr[0].function);
    ck_assert_str_eq(fr[0].function, "capture_here");
    ck_assert_ptr_nonnull(fr[0].file);
    ck_assert_msg(ends_with(fr[0].file, "test_stack.c"), "file %s", fr[0].file);
    ck_assert_int_eq(fr[0].line, call_line);
    ck_assert_ptr_nonnull(fr[0].module);
    ck_assert_uint_eq(fr[0].pc, pcs[0]);
    /* The next frame is this test function. */
    ck_assert_ptr_nonnull(fr[1].function);
    ck_assert_str_eq(fr[1].function, "test_capture_resolves_call_site_fn");
    for (size_t i = 0; i < n; i++) /* symbol versions are cut off */
        ck_assert(!fr[i].function || !strchr(fr[i].function, '@'));
    mc_frames_free(fr, n);
    ck_assert_ptr_null(fr[0].function);
}
END_TEST

START_TEST(test_capture_max)
{
    uintptr_t pcs[2] = { 0, 0 };
    mc_frame fr;
    int call_line;

    ck_assert_uint_eq(capture_here(pcs, 0, &call_line), 0);
    ck_assert_uint_eq(pcs[0], 0);
    ck_assert_uint_eq(capture_here(pcs, 1, &call_line), 1);
    ck_assert_uint_eq(pcs[1], 0); /* nothing written past max */
    mc_stack_resolve(pcs, 1, &fr);
    ck_assert_str_eq(fr.function, "capture_here");
    mc_frames_free(&fr, 1);
}
END_TEST

START_TEST(test_resolve_bogus_pc)
{
    uintptr_t pcs[3] = { 0x10, 0, UINTPTR_MAX };
    mc_frame fr[3];

    mc_stack_resolve(pcs, 3, fr);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(fr[i].pc, pcs[i]);
        ck_assert_ptr_null(fr[i].file);
        ck_assert_int_eq(fr[i].line, 0);
        ck_assert_ptr_null(fr[i].function);
    }
    mc_frames_free(fr, 3);
    mc_stack_resolve(pcs, 0, fr); /* n = 0 is a no-op */
}
END_TEST

struct range { uintptr_t target, lo, hi; };

static int exec_range_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    struct range *r = data;
    (void)size;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
            r->target >= a && r->target < a + ph->p_memsz) {
            r->lo = a;
            r->hi = a + ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

START_TEST(test_self_range_skips)
{
    struct range r = { (uintptr_t)&exec_range_cb, 0, 0 };
    uintptr_t pcs[MAXF];
    int call_line;

    ck_assert_int_eq(dl_iterate_phdr(exec_range_cb, &r), 1);
    mc_stack_set_self_range(r.lo, r.hi);
    size_t n = capture_here(pcs, MAXF, &call_line);
    mc_stack_set_self_range(0, 0);
    /* Outer frames in libc (and libcheck when shared) remain. */
    ck_assert_uint_gt(n, 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(pcs[i] < r.lo || pcs[i] >= r.hi, "frame %zu in range", i);
}
END_TEST

/* Concurrent resolves share one Dwfl behind a mutex. */
static void *resolve_thread(void *arg)
{
    uintptr_t pcs[MAXF];
    mc_frame fr[MAXF];
    int call_line;
    (void)arg;
    for (int k = 0; k < 20; k++) {
        size_t n = capture_here(pcs, MAXF, &call_line);
        mc_stack_resolve(pcs, n, fr);
        if (!fr[0].function || strcmp(fr[0].function, "capture_here") != 0 ||
            fr[0].line != call_line)
            return (void *)1;
        mc_frames_free(fr, n);
    }
    return NULL;
}

START_TEST(test_resolve_threads)
{
    pthread_t t[4];
    void *ret;

    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, resolve_thread, NULL), 0);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(pthread_join(t[i], &ret), 0);
        ck_assert_ptr_null(ret);
    }
}
END_TEST

/* An MPI call in a helper the compiler inlined: the helper is a frame of
 * its own with its line, then the function it was inlined into at the
 * helper's call (always_inline inlines at -O0 too). The symbol table
 * alone named the outer function with the helper's line. */
static inline __attribute__((always_inline))
size_t inlined_capture(uintptr_t *pcs, size_t max, int *call_line)
{
    size_t n;
    *call_line = __LINE__; n = mc_stack_capture(pcs, max);
    return n;
}

static int middle_line, outer_line;

/* A second level: the chain of callers is the concrete one (libdw's scopes
 * at an address go on with the abstract definition's past the first). */
static inline __attribute__((always_inline))
size_t inlined_middle(uintptr_t *pcs, size_t max, int *call_line)
{
    size_t n;
    middle_line = __LINE__; n = inlined_capture(pcs, max, call_line);
    return n;
}

__attribute__((noinline, noclone))
size_t calls_inlined(uintptr_t *pcs, size_t max, int *call_line)
{
    size_t n;
    outer_line = __LINE__; n = inlined_middle(pcs, max, call_line);
    __asm__ volatile("" ::: "memory"); /* no tail call (-O2): keep our frame */
    return n;
}

START_TEST(test_resolve_inlined)
{
    uintptr_t pcs[MAXF];
    int call_line;
    size_t n = calls_inlined(pcs, MAXF, &call_line);
    ck_assert_uint_gt(n, 1);

    mc_frame *fr = NULL;
    size_t k = mc_stack_resolve_inlined(pcs, n, &fr);
    ck_assert_ptr_nonnull(fr);
    /* A frame more for each helper (and more where the C library's own
     * frames have inlined code and debug information here). */
    ck_assert_uint_gt(k, n + 1);
    ck_assert_ptr_nonnull(fr[0].function);
    ck_assert_str_eq(fr[0].function, "inlined_capture");
    ck_assert_msg(fr[0].file && ends_with(fr[0].file, "test_stack.c"), "file %s", fr[0].file);
    ck_assert_int_eq(fr[0].line, call_line);
    ck_assert_ptr_nonnull(fr[1].function);
    ck_assert_str_eq(fr[1].function, "inlined_middle");
    ck_assert_int_eq(fr[1].line, middle_line);
    ck_assert_ptr_nonnull(fr[2].function);
    ck_assert_str_eq(fr[2].function, "calls_inlined");
    ck_assert_msg(fr[2].file && ends_with(fr[2].file, "test_stack.c"), "file %s", fr[2].file);
    ck_assert_int_eq(fr[2].line, outer_line);
    ck_assert_uint_eq(fr[2].pc, pcs[0]);    /* one return address, three frames */
    ck_assert_uint_eq(fr[2].offset, fr[0].offset);
    ck_assert_str_eq(fr[3].function, "test_resolve_inlined_fn");
    mc_frames_free(fr, k);
    free(fr);

    /* One frame a pc (mc_stack_resolve): the innermost, named for itself. */
    mc_frame one[MAXF];
    mc_stack_resolve(pcs, n, one);
    ck_assert_str_eq(one[0].function, "inlined_capture");
    ck_assert_int_eq(one[0].line, call_line);
    ck_assert_str_eq(one[1].function, "test_resolve_inlined_fn");
    mc_frames_free(one, n);
}
END_TEST

/* Report names: C++ demangled (the test is C: the demangler is loaded on
 * demand, as in the launcher), the symbol version cut, C names kept. */
START_TEST(test_function_names)
{
    char *a = mc_function_name("_ZN5boost3mpi6detail4sendEPKci");
    ck_assert_ptr_nonnull(a);
    ck_assert_str_eq(a, "boost::mpi::detail::send(char const*, int)");
    char *b = mc_function_name("__libc_start_main@@GLIBC_2.34");
    ck_assert_str_eq(b, "__libc_start_main");
    char *c = mc_function_name("main");
    ck_assert_str_eq(c, "main");
    char *d = mc_function_name("_Znot_a_mangled_name");     /* refused by the demangler: as it is */
    ck_assert_str_eq(d, "_Znot_a_mangled_name");
    free(a);
    free(b);
    free(c);
    free(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stack");
    TCase *tc = tcase_create("core");
    int failed;

    tcase_add_checked_fixture(tc, skip_nothing, NULL);
    tcase_set_timeout(tc, 60); /* valgrind */
    tcase_add_test(tc, test_capture_resolves_call_site);
    tcase_add_test(tc, test_capture_max);
    tcase_add_test(tc, test_resolve_bogus_pc);
    tcase_add_test(tc, test_self_range_skips);
    tcase_add_test(tc, test_resolve_threads);
    tcase_add_test(tc, test_function_names);
    tcase_add_test(tc, test_resolve_inlined);
    suite_add_tcase(s, tc);

    failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
