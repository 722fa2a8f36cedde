/*
 * test_sigrun.c - unit tests of src/match/sigrun.c without MPI: canonical
 * merging, repetition, hashing (equal for equivalent sequences however they
 * were built), the receiver's prefix comparison with truncation and mismatch
 * positions, MPI_BYTE / MPI_PACKED / unknown-type rules, and rendering.
 */
#include <check.h>
#include "run_suite.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sigrun.h"

/* A signature from (id, n) pairs ended by -1; size = 4 bytes per element,
 * 8 for MPI_DOUBLE, 1 for MPI_BYTE and MPI_PACKED (what the sizes do here). */
static uint64_t elem_size(unsigned id)
{
    return id == MC_T_DOUBLE ? 8 : (id == MC_T_BYTE || id == MC_T_PACKED) ? 1 : 4;
}

static mc_sig mk(int id, ...)
{
    mc_sig s;
    mc_sig_init(&s);
    va_list ap;
    va_start(ap, id);
    for (; id >= 0; id = va_arg(ap, int)) {
        uint64_t n = va_arg(ap, uint64_t);
        mc_sig_append_run(&s, (unsigned)id, n);
        s.size += n * elem_size((unsigned)id);
    }
    va_end(ap);
    return s;
}
#define N(x) ((uint64_t)(x))

/* count x sender compared with rcount x receiver. */
static mc_sig_result cmp(const mc_sig *snd, uint64_t count, const mc_sig *rcv, uint64_t rcount,
                         unsigned opts)
{
    mc_sig_msg m;
    mc_sig_result r;
    mc_sig_msg_make(&m, snd, count);
    mc_sig_compare(&m, rcv, rcount, opts, &r);
    return r;
}

/* mc_sig_set_same (typesig.c's Fortran and C types of one kind and size):
 * MPI_INTEGER against MPI_INT matches however the runs are cut, and hashes
 * alike; MPI_INTEGER against MPI_DOUBLE still differs, and the report keeps
 * the Fortran name. Runs last: the table is process-wide. */
START_TEST(test_same_as)
{
    mc_sig_set_same(MC_T_INTEGER, MC_T_INT);
    mc_sig f = mk(MC_T_INTEGER, N(2), MC_T_INT, N(1), MC_T_INTEGER, N(1), -1);
    mc_sig c = mk(MC_T_INT, N(4), -1);
    ck_assert_uint_eq(f.hash, c.hash);
    mc_sig_result r = cmp(&f, 1, &c, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&c, 2, &f, 2, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    mc_sig d = mk(MC_T_DOUBLE, N(2), -1);
    r = cmp(&f, 1, &d, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    char buf[64];
    ck_assert_str_eq(mc_sig_render(&f, 1, buf, sizeof buf), "{2 MPI_INTEGER, MPI_INT, MPI_INTEGER}");
    mc_sig_free(&f);
    mc_sig_free(&c);
    mc_sig_free(&d);
}
END_TEST

START_TEST(test_merge)
{
    mc_sig s = mk(MC_T_INT, N(2), MC_T_INT, N(3), MC_T_DOUBLE, N(0), MC_T_INT, N(1), -1);
    ck_assert_uint_eq(s.nruns, 1);
    ck_assert_uint_eq(s.runs[0].id, MC_T_INT);
    ck_assert_uint_eq(s.runs[0].n, 6);
    ck_assert_uint_eq(s.nelems, 6);
    mc_sig t = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), MC_T_INT, N(1), -1);
    ck_assert_uint_eq(t.nruns, 3);
    mc_sig e = mk(-1);
    ck_assert_uint_eq(e.nruns, 0);
    ck_assert_uint_eq(e.nelems, 0);
    mc_sig_free(&s);
    mc_sig_free(&t);
    mc_sig_free(&e);
}
END_TEST

START_TEST(test_repeat)
{
    mc_sig pair = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1);
    mc_sig s;
    mc_sig_init(&s);
    mc_sig_append(&s, &pair, 3);
    ck_assert_uint_eq(s.nruns, 6);
    ck_assert_uint_eq(s.nelems, 6);
    /* {INT, DOUBLE, INT} x 2 = INT DOUBLE 2INT DOUBLE INT: the wrap merges. */
    mc_sig idi = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), MC_T_INT, N(1), -1), w;
    mc_sig_init(&w);
    mc_sig_append(&w, &idi, 2);
    ck_assert_uint_eq(w.nruns, 5);
    ck_assert_uint_eq(w.runs[2].n, 2);
    /* Appending to a signature that ends in the first id merges too. */
    mc_sig j = mk(MC_T_INT, N(4), -1);
    mc_sig_append(&j, &idi, 1);
    ck_assert_uint_eq(j.nruns, 3);
    ck_assert_uint_eq(j.runs[0].n, 5);
    /* A single run repeated stays one run. */
    mc_sig one = mk(MC_T_FLOAT, N(3), -1), big;
    mc_sig_init(&big);
    mc_sig_append(&big, &one, 1000000);
    ck_assert_uint_eq(big.nruns, 1);
    ck_assert_uint_eq(big.runs[0].n, 3000000);
    /* Zero repetitions and empty sources add nothing. */
    mc_sig empty = mk(-1);
    mc_sig_append(&big, &pair, 0);
    mc_sig_append(&big, &empty, 5);
    ck_assert_uint_eq(big.nruns, 1);
    mc_sig_free(&pair); mc_sig_free(&s); mc_sig_free(&idi); mc_sig_free(&w);
    mc_sig_free(&j); mc_sig_free(&one); mc_sig_free(&big); mc_sig_free(&empty);
}
END_TEST

START_TEST(test_hash_equivalence)
{
    /* vector(2, 3, stride, MPI_INT) = 2 x (3 x INT) and contiguous(6, MPI_INT). */
    mc_sig blk = mk(MC_T_INT, N(3), -1), vec, contig = mk(MC_T_INT, N(6), -1);
    mc_sig_init(&vec);
    mc_sig_append(&vec, &blk, 2);
    ck_assert_uint_eq(vec.hash, contig.hash);
    ck_assert_uint_eq(vec.nruns, 1);
    ck_assert_uint_eq(vec.runs[0].n, 6);
    /* 3 x MPI_2INT (INT, INT) is 6 INT as well. */
    mc_sig two = mk(MC_T_INT, N(1), MC_T_INT, N(1), -1), pairs;
    mc_sig_init(&pairs);
    mc_sig_append(&pairs, &two, 3);
    ck_assert_uint_eq(pairs.hash, contig.hash);
    /* The hash of count copies equals the hash of the built repetition. */
    ck_assert_uint_eq(mc_sig_repeat_hash(blk.hash, blk.nelems, 2), contig.hash);
    mc_sig id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1), id3;
    mc_sig_init(&id3);
    mc_sig_append(&id3, &id, 3);
    ck_assert_uint_eq(mc_sig_repeat_hash(id.hash, id.nelems, 3), id3.hash);
    mc_sig byhand = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), MC_T_INT, N(1), MC_T_DOUBLE, N(1),
                       MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1);
    ck_assert_uint_eq(byhand.hash, id3.hash);
    /* Order, type and length all change the hash. */
    mc_sig di = mk(MC_T_DOUBLE, N(1), MC_T_INT, N(1), -1);
    mc_sig i7 = mk(MC_T_INT, N(7), -1), u6 = mk(MC_T_UNSIGNED, N(6), -1);
    ck_assert_uint_ne(id.hash, di.hash);
    ck_assert_uint_ne(i7.hash, contig.hash);
    ck_assert_uint_ne(u6.hash, contig.hash);
    ck_assert_uint_eq(mk(-1).hash, 0);
    mc_sig_free(&blk); mc_sig_free(&vec); mc_sig_free(&contig); mc_sig_free(&two);
    mc_sig_free(&pairs); mc_sig_free(&id); mc_sig_free(&id3); mc_sig_free(&byhand);
    mc_sig_free(&di); mc_sig_free(&i7); mc_sig_free(&u6);
}
END_TEST

START_TEST(test_long)
{
    /* 3000 x {INT, DOUBLE} = 6000 runs > MC_SIG_MAX_RUNS: hash and count kept. */
    mc_sig id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1), a, b, half;
    mc_sig_init(&a);
    mc_sig_append(&a, &id, 3000);
    ck_assert(a.flags & MC_SIG_LONG);
    ck_assert_uint_eq(a.nruns, 0);
    ck_assert_ptr_null(a.runs);
    ck_assert_uint_eq(a.nelems, 6000);
    /* Built one run at a time it overflows the cap midway: same hash. */
    mc_sig_init(&b);
    for (int i = 0; i < 3000; i++) {
        mc_sig_append_run(&b, MC_T_INT, 1);
        mc_sig_append_run(&b, MC_T_DOUBLE, 1);
    }
    ck_assert(b.flags & MC_SIG_LONG);
    ck_assert_uint_eq(a.hash, b.hash);
    /* 2 x (1500 x {INT, DOUBLE}) too. */
    mc_sig_init(&half);
    mc_sig_append(&half, &id, 1500);
    ck_assert(!(half.flags & MC_SIG_LONG));
    ck_assert_uint_eq(half.nruns, 3000);
    mc_sig c;
    mc_sig_init(&c);
    mc_sig_append(&c, &half, 2);
    ck_assert(c.flags & MC_SIG_LONG);
    ck_assert_uint_eq(c.hash, a.hash);
    mc_sig_free(&id); mc_sig_free(&a); mc_sig_free(&b); mc_sig_free(&half); mc_sig_free(&c);
}
END_TEST

START_TEST(test_compare_basic)
{
    mc_sig i1 = mk(MC_T_INT, N(1), -1), d1 = mk(MC_T_DOUBLE, N(1), -1);
    mc_sig_result r = cmp(&i1, 10, &i1, 15, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&i1, 15, &i1, 15, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&i1, 15, &i1, 10, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_uint_eq(r.msg_elems, 15);
    ck_assert_uint_eq(r.recv_elems, 10);
    ck_assert_uint_eq(r.msg_bytes, 60);
    ck_assert_uint_eq(r.recv_bytes, 40);
    r = cmp(&d1, 4, &i1, 4, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, 0);
    ck_assert_uint_eq(r.msg_id, MC_T_DOUBLE);
    ck_assert_uint_eq(r.recv_id, MC_T_INT);
    /* Empty message: fine whatever the receive; nonempty into nothing: truncation. */
    r = cmp(&d1, 0, &i1, 3, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&i1, 1, &i1, 0, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    mc_sig_free(&i1);
    mc_sig_free(&d1);
}
END_TEST

START_TEST(test_compare_positions)
{
    mc_sig id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1), i1 = mk(MC_T_INT, N(1), -1);
    mc_sig_result r = cmp(&id, 3, &i1, 6, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, 1);
    ck_assert_uint_eq(r.msg_id, MC_T_DOUBLE);
    ck_assert_uint_eq(r.recv_id, MC_T_INT);
    /* 2 x {INT, INT, DOUBLE} is a prefix of {2 INT, DOUBLE, 2 INT, DOUBLE, CHAR}. */
    mc_sig iid = mk(MC_T_INT, N(2), MC_T_DOUBLE, N(1), -1);
    mc_sig rv = mk(MC_T_INT, N(2), MC_T_DOUBLE, N(1), MC_T_INT, N(2), MC_T_DOUBLE, N(1),
                   MC_T_CHAR, N(1), -1);
    r = cmp(&iid, 2, &rv, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&iid, 3, &rv, 1, 0);       /* element 6 is CHAR in the receive */
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, 6);
    ck_assert_uint_eq(r.recv_id, MC_T_CHAR);
    /* A mismatch inside the overlap wins over truncation: 200 elements sent,
     * 102 received, element 101 differs. */
    mc_sig rv2;
    mc_sig_init(&rv2);
    mc_sig_append(&rv2, &id, 50);
    mc_sig_append_run(&rv2, MC_T_INT, 1);
    mc_sig_append_run(&rv2, MC_T_FLOAT, 1);
    r = cmp(&id, 100, &rv2, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, 101);
    ck_assert_uint_eq(r.msg_id, MC_T_DOUBLE);
    ck_assert_uint_eq(r.recv_id, MC_T_FLOAT);
    /* Without the difference it is a truncation. */
    r = cmp(&id, 100, &id, 51, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_uint_eq(r.msg_elems, 200);
    ck_assert_uint_eq(r.recv_elems, 102);
    mc_sig_free(&id); mc_sig_free(&i1); mc_sig_free(&iid); mc_sig_free(&rv); mc_sig_free(&rv2);
}
END_TEST

START_TEST(test_compare_hash_paths)
{
    /* Sender signature too long to inline (13 runs): the first 8 are compared
     * run by run, the rest by prefix hash. */
    mc_sig id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1), snd, good, bad;
    mc_sig_init(&snd);
    mc_sig_append(&snd, &id, 6);
    mc_sig_append_run(&snd, MC_T_CHAR, 1);
    mc_sig_init(&good);
    mc_sig_append(&good, &id, 6);
    mc_sig_append_run(&good, MC_T_CHAR, 1);
    mc_sig_append_run(&good, MC_T_INT, 1);
    mc_sig_result r = cmp(&snd, 1, &good, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    mc_sig_init(&bad);
    mc_sig_append(&bad, &id, 7);
    r = cmp(&snd, 1, &bad, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, -1);
    ck_assert_uint_eq(r.after, 8);
    /* A difference inside the inline runs still has its position. */
    mc_sig bad2 = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), MC_T_FLOAT, N(1), -1);
    r = cmp(&snd, 1, &bad2, 5, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, 2);
    /* A LONG sender (no runs at all) against a short periodic receive. */
    mc_sig lng;
    mc_sig_init(&lng);
    mc_sig_append(&lng, &id, 3000);
    ck_assert(lng.flags & MC_SIG_LONG);
    r = cmp(&lng, 1, &id, 3000, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&lng, 1, &id, 2999, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    mc_sig ifl = mk(MC_T_INT, N(1), MC_T_FLOAT, N(1), -1);
    r = cmp(&lng, 1, &ifl, 3000, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, -1);
    /* A receive whose remainder needs runs it does not have: undecided. */
    mc_sig odd;
    mc_sig_init(&odd);
    mc_sig_append(&odd, &id, 2500);
    mc_sig_append_run(&odd, MC_T_INT, 1);
    ck_assert(odd.flags & MC_SIG_LONG);
    r = cmp(&ifl, 2, &odd, 1, 0);       /* 4 elements vs 5001: INT,FLOAT vs INT,DOUBLE */
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    /* A walk past MC_SIG_MAX_STEPS hands over to the hashes. */
    mc_sig id2;
    mc_sig_init(&id2);
    mc_sig_append(&id2, &id, 2);
    r = cmp(&id, 1500000, &id2, 750000, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    mc_sig_free(&id); mc_sig_free(&snd); mc_sig_free(&good); mc_sig_free(&bad);
    mc_sig_free(&bad2); mc_sig_free(&lng); mc_sig_free(&ifl); mc_sig_free(&odd);
    mc_sig_free(&id2);
}
END_TEST

START_TEST(test_byte_packed)
{
    mc_sig i1 = mk(MC_T_INT, N(1), -1), b1 = mk(MC_T_BYTE, N(1), -1);
    mc_sig p1 = mk(MC_T_PACKED, N(1), -1), d1 = mk(MC_T_DOUBLE, N(1), -1);
    /* MPI-3.1 3.3.1 Example 3.2: 10 MPI_REAL sent, 40 MPI_BYTE received: erroneous. */
    mc_sig_result r = cmp(&i1, 10, &b1, 40, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_uint_eq(r.recv_id, MC_T_BYTE);
    r = cmp(&b1, 40, &i1, 10, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    /* Example 3.3: 40 MPI_BYTE into 60 MPI_BYTE: correct. */
    r = cmp(&b1, 40, &b1, 60, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    /* The lenient option compares bytes when one side is all MPI_BYTE. */
    r = cmp(&i1, 10, &b1, 40, MC_SIGCMP_LAX_BYTE);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&i1, 11, &b1, 40, MC_SIGCMP_LAX_BYTE);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_int_eq(r.bytes_rule, 1);
    /* MPI_PACKED either side: bytes only. */
    r = cmp(&p1, 100, &i1, 25, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&p1, 100, &i1, 24, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_int_eq(r.bytes_rule, 1);
    r = cmp(&d1, 10, &p1, 80, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    r = cmp(&d1, 10, &p1, 50, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_uint_eq(r.msg_bytes, 80);
    ck_assert_uint_eq(r.recv_bytes, 50);
    mc_sig_free(&i1); mc_sig_free(&b1); mc_sig_free(&p1); mc_sig_free(&d1);
}
END_TEST

START_TEST(test_opaque)
{
    mc_sig o = mk(MC_T_OPAQUE, N(1), -1), i1 = mk(MC_T_INT, N(1), -1);
    ck_assert(o.flags & MC_SIG_OPAQUE);
    mc_sig_result r = cmp(&o, 3, &i1, 3, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    r = cmp(&i1, 3, &o, 3, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    r = cmp(&o, 3, &o, 5, 0);       /* the same unknown type: no report */
    ck_assert_int_eq(r.verdict, MC_SIG_MATCH);
    /* A known difference before the unknown element is still reported... */
    mc_sig io = mk(MC_T_INT, N(1), MC_T_OPAQUE, N(1), MC_T_FLOAT, N(1), -1);
    mc_sig dx = mk(MC_T_DOUBLE, N(1), MC_T_INT, N(2), -1);
    r = cmp(&io, 1, &dx, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_MISMATCH);
    ck_assert_int_eq(r.index, 0);
    /* ...but not one after it (equal byte counts: no truncation either). */
    mc_sig ioi = mk(MC_T_INT, N(1), MC_T_OPAQUE, N(1), MC_T_INT, N(1), -1);
    r = cmp(&io, 1, &ioi, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    /* Truncation with unknown types goes by bytes. */
    o.size = 16;
    i1.size = 4;
    r = cmp(&o, 1, &i1, 2, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_TRUNCATED);
    ck_assert_int_eq(r.bytes_rule, 1);
    mc_sig_append_run(&i1, 9999, 1);   /* out-of-range id counts as unknown */
    ck_assert(i1.flags & MC_SIG_OPAQUE);
    mc_sig_free(&o); mc_sig_free(&i1); mc_sig_free(&io); mc_sig_free(&dx); mc_sig_free(&ioi);
}
END_TEST

START_TEST(test_overflow)
{
    mc_sig big = mk(MC_T_INT, N(1) << 40, -1), huge;
    mc_sig_init(&huge);
    mc_sig_append(&huge, &big, N(1) << 30);
    ck_assert(huge.flags & MC_SIG_OVERFLOW);
    mc_sig_result r = cmp(&huge, 1, &big, 1, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    /* Counts that overflow only when multiplied by count: undecided too. */
    r = cmp(&big, N(1) << 30, &big, N(1) << 30, 0);
    ck_assert_int_eq(r.verdict, MC_SIG_UNKNOWN);
    char buf[64];
    ck_assert_str_eq(mc_sig_render(&huge, 1, buf, sizeof buf), "more than 2^64 elements");
    mc_sig_free(&big);
    mc_sig_free(&huge);
}
END_TEST

START_TEST(test_msg_wire)
{
    mc_sig id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1);
    mc_sig_msg m;
    memset(&m, 0xFF, sizeof m);
    mc_sig_msg_make(&m, &id, 7);
    ck_assert_uint_eq(m.count, 7);
    ck_assert_uint_eq(m.nruns, 2);
    ck_assert_uint_eq(m.runs[0].pad_, 0);
    const unsigned char *tail = (const unsigned char *)&m.runs[2];
    for (size_t i = 0; i < sizeof m.runs[0] * (MC_SIG_INLINE_RUNS - 2); i++)
        ck_assert_uint_eq(tail[i], 0);
    mc_sig_free(&id);
}
END_TEST

START_TEST(test_render)
{
    char buf[256];
    mc_sig i1 = mk(MC_T_INT, N(1), -1), id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1);
    mc_sig iid = mk(MC_T_INT, N(2), MC_T_DOUBLE, N(1), -1), e = mk(-1);
    ck_assert_str_eq(mc_sig_render(&i1, 12, buf, sizeof buf), "12 MPI_INT");
    ck_assert_str_eq(mc_sig_render(&id, 3, buf, sizeof buf), "3 x {MPI_INT, MPI_DOUBLE}");
    ck_assert_str_eq(mc_sig_render(&iid, 1, buf, sizeof buf), "{2 MPI_INT, MPI_DOUBLE}");
    ck_assert_str_eq(mc_sig_render(&e, 4, buf, sizeof buf), "nothing (0 elements)");
    ck_assert_str_eq(mc_sig_render(&i1, 0, buf, sizeof buf), "nothing (0 elements)");
    mc_sig many;
    mc_sig_init(&many);
    mc_sig_append(&many, &id, 5);
    mc_sig_render(&many, 2, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "2 x {MPI_INT, MPI_DOUBLE, "));
    ck_assert_ptr_nonnull(strstr(buf, ", ... (10 runs, 10 elements)}"));
    mc_sig_msg m;
    mc_sig_msg_make(&m, &many, 2);
    ck_assert_ptr_nonnull(strstr(mc_sig_msg_render(&m, buf, sizeof buf), "(10 runs, 10 elements)"));
    mc_sig lng;
    mc_sig_init(&lng);
    mc_sig_append(&lng, &id, 3000);
    ck_assert_str_eq(mc_sig_render(&lng, 1, buf, sizeof buf),
                     "{6000 elements in more than 4096 runs}");
    /* Short buffers are cut and terminated. */
    char small[8];
    mc_sig_render(&id, 3, small, sizeof small);
    ck_assert_uint_eq(strlen(small), 7);
    mc_sig_free(&i1); mc_sig_free(&id); mc_sig_free(&iid); mc_sig_free(&e);
    mc_sig_free(&many); mc_sig_free(&lng);
}
END_TEST

START_TEST(test_describe)
{
    char buf[256];
    mc_sig id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1), i1 = mk(MC_T_INT, N(1), -1);
    mc_sig_result r = cmp(&id, 3, &i1, 6, 0);
    ck_assert_str_eq(mc_sig_result_describe(&r, buf, sizeof buf),
                     "element 1 of the message is MPI_DOUBLE where the receive expects MPI_INT");
    r = cmp(&i1, 15, &i1, 10, 0);
    ck_assert_str_eq(mc_sig_result_describe(&r, buf, sizeof buf),
                     "the message has 15 elements (60 bytes) but the receive buffer holds only 10 (40 bytes)");
    ck_assert_str_eq(mc_sig_id_name(MC_T_INT), "MPI_INT");
    ck_assert_str_eq(mc_sig_id_name(MC_T_COUNT_), "(invalid id)");
    mc_sig_free(&id);
    mc_sig_free(&i1);
}
END_TEST

START_TEST(test_copy)
{
    mc_sig id = mk(MC_T_INT, N(1), MC_T_DOUBLE, N(1), -1), c;
    ck_assert_int_eq(mc_sig_copy(&c, &id), 0);
    ck_assert_ptr_ne(c.runs, id.runs);
    ck_assert_uint_eq(c.hash, id.hash);
    ck_assert_uint_eq(c.nruns, 2);
    mc_sig_append_run(&c, MC_T_INT, 1);
    ck_assert_uint_eq(id.nruns, 2);
    mc_sig_free(&id);
    mc_sig_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sigrun");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_merge);
    tcase_add_test(tc, test_repeat);
    tcase_add_test(tc, test_hash_equivalence);
    tcase_add_test(tc, test_long);
    tcase_add_test(tc, test_compare_basic);
    tcase_add_test(tc, test_compare_positions);
    tcase_add_test(tc, test_compare_hash_paths);
    tcase_add_test(tc, test_byte_packed);
    tcase_add_test(tc, test_opaque);
    tcase_add_test(tc, test_overflow);
    tcase_add_test(tc, test_msg_wire);
    tcase_add_test(tc, test_render);
    tcase_add_test(tc, test_describe);
    tcase_add_test(tc, test_copy);
    tcase_add_test(tc, test_same_as);
    suite_add_tcase(s, tc);
    int failed = mc_run_suite(s, CK_FORK_GETENV);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
