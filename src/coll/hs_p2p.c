/*
 * hs_p2p.c - the first reduction of a collective handshake by
 * point-to-point messages instead of MPI_Iallreduce.
 *
 * RATIONALE: a handshake is a second collective before each one, and MPI's
 * nonblocking reduction is slow for a small vector: at 2 ranks over shared
 * memory an MPI_Iallreduce of the 208-byte record takes about 1.9 us in
 * both Open MPI 4.1 and MPICH 4.0 (libnbc's and MPICH's schedules), where
 * an exchange of the same bytes by MPI_Isend/MPI_Irecv takes 0.4 to 0.9 us
 * (docs/performance.md). The record is combined with MPI_MAX slot by slot,
 * which is exact, associative and commutative, so a recursive-doubling
 * exchange (MPICH's algorithm for small allreduces: log2(p) rounds, plus
 * one before and one after for the ranks beyond the largest power of two)
 * gives every member the same combined record.
 *
 * The messages cannot go on the shadow: a mirror receive with MPI_ANY_TAG
 * posted there for the application's receive would take them. So a
 * communicator gets a copy of its shadow (MPI_Comm_idup, started through
 * the shadow queue like every other copy) when it reaches MC_HS_TWIN_AFTER
 * collectives: communicators with few collectives, the most numerous,
 * never cost a third communicator. Every member starts that copy at the
 * same collective. Which reduction a handshake uses must be the same on
 * every member, and a member's copy completes on its own time; so each
 * record carries MC_CR_TWIN_WAIT (1 while this member's copy is not ready),
 * and a clean blocking handshake whose combined record shows 0 everywhere
 * switches the communicator to point-to-point for every later handshake.
 * Every member sees the same combined record and the same verdict, and a
 * clean verdict means every member's call was blocking too, so each
 * member switches after the same collective, before it starts the next.
 *
 * Tags: each handshake's messages carry a tag from its collective number
 * and step, so handshakes running together (nonblocking ones) never take
 * each other's messages; they repeat after (MPI_TAG_UB + 1) / 34
 * collectives (63 million in both MPIs here, 963 at the least the standard
 * allows), which matters only if as many handshakes of one communicator
 * were pending at once. Not used on
 * intercommunicators (their handshake runs on a merge), under
 * MPI_THREAD_MULTIPLE, or on communicators that span two jobs.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "coll_internal.h"
#include "typecache.h"
#include "runtime.h"
#include "state.h"

enum { MC_TWIN_NONE = 0, MC_TWIN_QUEUED, MC_TWIN_COPYING, MC_TWIN_READY, MC_TWIN_FAILED };

static int start_copy(void *ctx)
{
    mc_pcomm *pc = ctx;
    int rc = PMPI_Comm_idup(pc->shadow, &pc->hs_twin, &pc->hs_twin_req);
    if (rc != MPI_SUCCESS) {
        pc->hs_twin_state = MC_TWIN_FAILED;
        pc->hs_twin = MPI_COMM_NULL;
        pc->hs_twin_req = MPI_REQUEST_NULL;
        return rc;
    }
    pc->hs_twin_state = MC_TWIN_COPYING;
    /* Later collectives of the checker on the shadow wait for the copy
     * (shadow_queue.c says why). */
    mc_sq_copy_started_req(pc->shadow, pc, &pc->hs_twin_req);
    return rc;
}

static int eligible(const mc_pcomm *pc)
{
    return !pc->is_inter && !pc->spans_worlds && pc->flat == pc->shadow && pc->shadow != MPI_COMM_NULL
           && mc_st.thread_level != MPI_THREAD_MULTIPLE;
}

/* Whether this member's copy is ready; a test only where the call may
 * drive MPI's progress (blocking calls: see handshake.c). */
static int copy_ready(mc_pcomm *pc, int may_test)
{
    if (pc->hs_twin_state == MC_TWIN_COPYING && may_test && pc->hs_twin_req != MPI_REQUEST_NULL) {
        int flag = 0;
        if (PMPI_Test(&pc->hs_twin_req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            pc->hs_twin_req = MPI_REQUEST_NULL;
            pc->hs_twin_state = MC_TWIN_FAILED;
        }
    }
    if (pc->hs_twin_state == MC_TWIN_COPYING && pc->hs_twin_req == MPI_REQUEST_NULL)
        pc->hs_twin_state = pc->hs_twin != MPI_COMM_NULL ? MC_TWIN_READY : MC_TWIN_FAILED;
    return pc->hs_twin_state == MC_TWIN_READY;
}

/* MC_HS_TWIN_AFTER, or MPICHECK_INTERNAL_TWIN_AFTER (the tests run every
 * collective program with 1, so that the point-to-point path sees them
 * all: tests/hs_p2p.sh). The launcher gives every rank the same value. */
static uint64_t twin_after(void)
{
    static uint64_t after;
    if (!after) {
        const char *e = getenv("MPICHECK_INTERNAL_TWIN_AFTER");
        long v = e ? strtol(e, NULL, 10) : 0;
        after = v > 0 ? (uint64_t)v : MC_HS_TWIN_AFTER;
    }
    return after;
}

void mc_hs_p2p_enter(mc_pcomm *pc, hs_t *h, int blocking)
{
    if (pc->coll_seq == twin_after() && pc->hs_twin_state == MC_TWIN_NONE && eligible(pc)) {
        int rc = MPI_SUCCESS;
        pc->hs_twin_state = MC_TWIN_QUEUED;
        if (mc_sq_submit(pc->shadow, start_copy, pc, &rc) && rc != MPI_SUCCESS)
            pc->hs_twin_state = MC_TWIN_FAILED;
    }
    mc_collrec_put(&h->mine, MC_CR_TWIN_WAIT, copy_ready(pc, blocking) ? 0 : 1);
}

/* MPICHECK_INTERNAL_TEST_P2P_TRACE: a stderr line when a communicator
 * switches, and at the first MPI_Barrier left to its handshake, for
 * tests/hs_p2p.sh (that the path it tests ran). */
static int tracing(void)
{
    static int on = -1;
    if (on < 0)
        on = getenv("MPICHECK_INTERNAL_TEST_P2P_TRACE") != NULL;
    return on;
}

void mc_hs_p2p_after(mc_pcomm *pc, const hs_t *h)
{
    int64_t lo, hi;
    if (!pc->hs_p2p && !h->verdict && h->stage == HS_DONE && pc->hs_twin_state == MC_TWIN_READY
        && mc_collrec_get(&h->all, MC_CR_TWIN_WAIT, &lo, &hi) && lo == 0 && hi == 0) {
        pc->hs_p2p = 1;
        if (tracing())
            fprintf(stderr, "mpicheck-trace: rank %d: handshakes by point-to-point after collective %llu "
                    "of a communicator of %d\n", mc_st.world_rank, (unsigned long long)pc->coll_seq, pc->size);
    }
}

int mc_hs_p2p_synced(const hs_t *h)
{
    static int told[3];
    int64_t lo, hi;
    if (h->stage != HS_DONE || h->verdict || !h->p2p_used || h->p2p != MC_HS_P2P_NO || h->p2p_op != h->p2p_nops)
        return 0;
    int kind = h->fn == MC_FN_MPI_Allreduce ? 1 : h->fn == MC_FN_MPI_Bcast ? 2 : 0;
    if (kind) {
        /* Every member's data rode along (and this member's combining
         * never failed): the result is the one every member holds. */
        if (!h->p2p_fold || !mc_collrec_get(&h->all, MC_CR_FOLD, &lo, &hi) || lo != 1 || hi != 1)
            return 0;
        const mc_call *c = h->call;
        int size = 0, count = kind == 1 ? c->vals[2].i : c->vals[1].i;
        PMPI_Type_size(c->vals[kind == 1 ? 3 : 2].type, &size);
        if (kind == 2 && (!mc_collrec_get(&h->all, MC_CR_FOLD_ROOT, &lo, &hi) || hi != 1))
            return 0;       /* no root's data came (cannot be with a clean verdict) */
        void *dst = (void *)c->vals[kind == 1 ? 1 : 0].p;
        if (count > 0 && !(kind == 2 && h->root_arg == h->comm_rank))
            memcpy(dst, h->p2p_acc + MC_CR_INTRA_SLOTS, (size_t)count * (size_t)size);
    } else if (h->fn != MC_FN_MPI_Barrier) {
        return 0;
    }
    if (!told[kind] && tracing()) {
        told[kind] = 1;
        fprintf(stderr, "mpicheck-trace: rank %d: %s without a real call\n", mc_st.world_rank,
                kind == 1 ? "MPI_Allreduce" : kind == 2 ? "MPI_Bcast" : "MPI_Barrier");
    }
    return 1;
}

/* The rounds of a recursive-doubling allreduce for rank r of p. */
static void plan(hs_t *h, int r, int p)
{
    int pof2 = 1, n = 0;
    while (pof2 * 2 <= p)
        pof2 *= 2;
    int rem = p - pof2, newrank;
    /* Each step's tag is its place in the algorithm, not in this rank's
     * list: a rank beyond the largest power of two has no first step. */
#define OP(STEP, PEER, S, R, REPL) do { h->p2p_ops[n].step = (STEP); h->p2p_ops[n].peer = (PEER); \
        h->p2p_ops[n].send = (S); h->p2p_ops[n].recv = (R); h->p2p_ops[n].replace = (REPL); n++; } while (0)
    if (r < 2 * rem) {
        if (r % 2 == 0) {
            OP(0, r + 1, 1, 0, 0);      /* give its record to r + 1, which stands for both */
            newrank = -1;
        } else {
            OP(0, r - 1, 0, 1, 0);
            newrank = r / 2;
        }
    } else {
        newrank = r - rem;
    }
    if (newrank >= 0)
        for (int mask = 1, step = 1; mask < pof2; mask <<= 1, step++) {
            int pn = newrank ^ mask;
            OP(step, pn < rem ? pn * 2 + 1 : pn + rem, 1, 1, 0);
        }
    if (r < 2 * rem)
        OP(33, r % 2 ? r - 1 : r + 1, r % 2, r % 2 == 0, 1);   /* the result back */
#undef OP
    h->p2p_nops = n;
}

static int post(hs_t *h)
{
    int i = h->p2p_op, tag = h->p2p_tag + h->p2p_ops[i].step, rc = MPI_SUCCESS;
    h->p2p_req[0] = h->p2p_req[1] = MPI_REQUEST_NULL;
    /* Room for the longest message a peer may send (its data folded in or
     * not: whether all fold is known only at the end). */
    if (h->p2p_ops[i].recv)
        rc = PMPI_Irecv(h->p2p_in, (int)(sizeof h->p2p_in / sizeof h->p2p_in[0]), MPI_INT64_T,
                        h->p2p_ops[i].peer, tag, h->p2p_comm, &h->p2p_req[0]);
    if (rc == MPI_SUCCESS && h->p2p_ops[i].send)
        rc = PMPI_Isend(h->p2p_acc, h->p2p_nsend, MPI_INT64_T, h->p2p_ops[i].peer, tag, h->p2p_comm,
                        &h->p2p_req[1]);
    return rc;
}

static int among(MPI_Datatype t, const MPI_Datatype *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == t)
            return 1;
    return 0;
}
#define AMONG(t, ...) among((t), (const MPI_Datatype[]){__VA_ARGS__}, \
                            sizeof (const MPI_Datatype[]){__VA_ARGS__} / sizeof(MPI_Datatype))

/* Whether MPI defines op on t (MPI-4.0 sec. 6.9.2), from a list kept
 * narrow: MPI_Reduce_local on a pair it does not define would end the job
 * (its errors go to MPI_COMM_SELF's handler, fatal by default), where the
 * real MPI_Allreduce reports through the communicator's. Handles compared
 * one by one: Open MPI's are addresses, not constants. */
static int op_allows(MPI_Op op, MPI_Datatype t)
{
    int c_int = AMONG(t, MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
                      MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T,
                      MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T,
                      MPI_UINT64_T);
    int number = c_int || AMONG(t, MPI_INTEGER, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_FLOAT, MPI_DOUBLE,
                                MPI_REAL, MPI_DOUBLE_PRECISION);
    if (op == MPI_MAX || op == MPI_MIN || op == MPI_SUM || op == MPI_PROD)
        return number;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return c_int || t == MPI_C_BOOL;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return c_int || t == MPI_BYTE;
    if (op == MPI_MAXLOC || op == MPI_MINLOC)   /* the pair types without padding */
        return AMONG(t, MPI_2INT, MPI_FLOAT_INT, MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER);
    return 0;
}

/* Whether count x t can ride in a handshake: a predefined datatype
 * without holes (the pair types of MPI_MAXLOC/MINLOC such as MPI_LONG_INT,
 * 12 bytes in an extent of 16, are laid out with padding a copy of the
 * bytes would not follow: MPICH's coll/allred found it), at most
 * MC_HS_FOLD_MAX bytes. Its size in *size. */
static int fold_fits(MPI_Datatype t, int count, int *size)
{
    int ni, na, nd, comb;
    mc_type_extents x;
    if (count < 0 || t == MPI_DATATYPE_NULL
        || PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS || comb != MPI_COMBINER_NAMED
        || mc_typecache_extents(t, &x) != 0 || x.size <= 0 || x.size != x.extent || x.lb != 0
        || x.true_lb != 0 || x.true_extent != x.size || (long long)count * x.size > MC_HS_FOLD_MAX)
        return 0;
    *size = (int)x.size;
    return 1;
}

/* Whether this member's call can ride in its handshake, and then its data
 * after the record:
 * - MPI_Allreduce: a small reduction of a predefined datatype by a
 *   predefined operation MPI defines on it (every one is commutative, so
 *   each member's partial results in any order give the same bits
 *   everywhere, and no program callback runs inside the checker); every
 *   member puts its data in;
 * - MPI_Bcast: a small broadcast of a predefined datatype; the root puts
 *   its data in (MC_CR_FOLD_ROOT), and each step passes it on.
 * Every folding member sends the data area, filled or not. */
static int fold_in(hs_t *h)
{
    const mc_call *c = h->call;
    int count, size = 0, root = 0;
    const void *src;
    if (!c || c->invalid)
        return 0;
    if (h->fn == MC_FN_MPI_Allreduce) {
        count = c->vals[2].i;
        MPI_Op op = c->vals[4].op;
        if (!fold_fits(c->vals[3].type, count, &size) || op == MPI_OP_NULL || !op_allows(op, c->vals[3].type))
            return 0;
        src = c->vals[0].p == MPI_IN_PLACE ? c->vals[1].p : c->vals[0].p;
        root = 1;
    } else if (h->fn == MC_FN_MPI_Bcast) {
        count = c->vals[1].i;
        if (!fold_fits(c->vals[2].type, count, &size) || h->root_arg < 0 || h->root_arg >= h->flat_size)
            return 0;
        src = c->vals[0].p;
        root = h->root_arg == h->comm_rank;
        mc_collrec_put(&h->mine, MC_CR_FOLD_ROOT, root);
    } else {
        return 0;
    }
    if (count > 0 && !src)
        return 0;
    if (count > 0 && root)
        memcpy(h->p2p_acc + MC_CR_INTRA_SLOTS, src, (size_t)count * (size_t)size);
    h->p2p_nsend += (count * size + 7) / 8;
    return 1;
}

/* Combines a peer's data into this member's (MPI_Reduce_local: the
 * operation on the datatype, as MPI applies it; op_allows made sure MPI
 * defines it, so it fails on no member). */
static int fold_combine(hs_t *h)
{
    const mc_call *c = h->call;
    if (h->fn == MC_FN_MPI_Bcast) {
        /* The root's data, from whichever side has it (read before the
         * records are merged: afterwards both would say so). */
        if (h->p2p_in[2 * MC_CR_FOLD_ROOT] == 1 && h->p2p_acc[2 * MC_CR_FOLD_ROOT] != 1)
            memcpy(h->p2p_acc + MC_CR_INTRA_SLOTS, h->p2p_in + MC_CR_INTRA_SLOTS, MC_HS_FOLD_MAX);
        return MPI_SUCCESS;
    }
    return PMPI_Reduce_local(h->p2p_in + MC_CR_INTRA_SLOTS, h->p2p_acc + MC_CR_INTRA_SLOTS, c->vals[2].i,
                             c->vals[3].type, c->vals[4].op);
}

/* A failed call may leave the other request in MPI's hands: then the
 * record is never freed (hs_free), rather than freed under MPI. */
static void failed(hs_t *h)
{
    int live = h->p2p_req[0] != MPI_REQUEST_NULL || h->p2p_req[1] != MPI_REQUEST_NULL;
    h->p2p = live ? MC_HS_P2P_FAILED : MC_HS_P2P_NO;
}

int mc_hs_p2p_start(hs_t *h, mc_pcomm *pc)
{
    h->p2p = MC_HS_P2P_RUNNING;
    h->p2p_used = 1;
    h->p2p_comm = pc->hs_twin;
    h->p2p_op = 0;
    /* MPI_TAG_UB is the same on every process of MPI_COMM_WORLD (MPI-4.0
     * sec. 9.1.2), so every member finds the same tag. */
    uint64_t blocks = ((uint64_t)(mc_st.tag_ub > 32767 ? mc_st.tag_ub : 32767) + 1) / 34;
    h->p2p_tag = (int)(pc->coll_seq % blocks) * 34;
    h->p2p_nsend = MC_CR_INTRA_SLOTS;
    h->p2p_fold = fold_in(h);
    mc_collrec_put(&h->mine, MC_CR_FOLD, h->p2p_fold);
    memcpy(h->p2p_acc, h->mine.slot, sizeof h->p2p_acc[0] * MC_CR_INTRA_SLOTS);
    memcpy(h->all.slot, h->mine.slot, sizeof h->all.slot[0] * MC_CR_INTRA_SLOTS);
    plan(h, h->flat_rank, h->flat_size);
    if (h->p2p_nops == 0) {     /* alone: the record is the combined one */
        h->p2p = MC_HS_P2P_NO;
        return MPI_SUCCESS;
    }
    int rc = post(h);
    if (rc != MPI_SUCCESS)
        failed(h);
    return rc;
}

int mc_hs_p2p_progress(hs_t *h)
{
    while (h->p2p == MC_HS_P2P_RUNNING) {
        int flag = 0;
        MPI_Status st[2];   /* not MPI_STATUSES_IGNORE: MPICH's mpi.h gives the array a size gcc checks */
        if (PMPI_Testall(2, h->p2p_req, &flag, st) != MPI_SUCCESS) {
            failed(h);
            return -1;
        }
        if (!flag)
            return 0;
        int i = h->p2p_op;
        if (h->p2p_ops[i].recv) {
            if (h->p2p_ops[i].replace) {
                memcpy(h->p2p_acc, h->p2p_in, sizeof h->p2p_in);
            } else {
                /* A peer that did not fold sent no data: what is combined
                 * then is never used (MC_CR_FOLD below 1 somewhere). */
                if (h->p2p_fold && fold_combine(h) != MPI_SUCCESS)
                    h->p2p_fold = 0;
                for (int k = 0; k < MC_CR_INTRA_SLOTS; k++)
                    if (h->p2p_in[k] > h->p2p_acc[k])
                        h->p2p_acc[k] = h->p2p_in[k];
            }
        }
        if (++h->p2p_op == h->p2p_nops) {
            memcpy(h->all.slot, h->p2p_acc, sizeof h->all.slot[0] * MC_CR_INTRA_SLOTS);
            h->p2p = MC_HS_P2P_NO;
            return 1;
        }
        if (post(h) != MPI_SUCCESS) {
            failed(h);
            return -1;
        }
    }
    return h->p2p == MC_HS_P2P_NO ? 1 : -1;
}

void mc_hs_p2p_wait(mc_pcomm *pc)
{
    /* As comms.c's copy_wait: a copy still running reads the shadow, so
     * neither is freed before it ends. In MPI_Finalize at most 2 s: the
     * copy starts at a communicator's MC_HS_TWIN_AFTER-th collective, and
     * a member that never made that collective never joins it (the
     * collective is reported by coll/unmatched.c); the copy is then left
     * running, and its shadow is never freed. */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (pc->hs_twin_state == MC_TWIN_QUEUED || (pc->hs_twin_state == MC_TWIN_COPYING
                                                   && pc->hs_twin_req != MPI_REQUEST_NULL)) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (mc_eng_final_waits && (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) * 1e-9 > 2.0)
            return;
        mc_sq_drive();
        if (pc->hs_twin_state == MC_TWIN_COPYING && copy_ready(pc, 1))
            break;
        mc_eng_unlock();
        sched_yield();
        mc_eng_lock();
    }
    copy_ready(pc, 0);
}

void mc_hs_p2p_comm_freed(mc_pcomm *pc)
{
    if (pc->hs_twin_state == MC_TWIN_NONE)
        return;
    mc_hs_p2p_wait(pc);
    /* The shadow queue may have registered the copy (with pc) meanwhile. */
    mc_sq_forget(pc);
    pc->hs_p2p = 0;
    if (pc->hs_twin != MPI_COMM_NULL)
        mc_coll_release_comm(&pc->hs_twin);
    pc->hs_twin_state = MC_TWIN_NONE;
}
