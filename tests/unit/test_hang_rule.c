/*
 * test_hang_rule.c - unit tests of src/launcher/hang_rule.c without MPI:
 * which looks at a job's boards make it frozen (a hang once nothing moves
 * for --hang-timeout), and which never may: a rank computing, a thread
 * outside MPI, a server waiting for clients, a spawn whose children are
 * still starting, ranks on another node.
 */
#include <check.h>
#include "run_suite.h"
#include <string.h>

#include "board_layout.h"
#include "hang_rule.h"

/* A rank with its one thread inside an ordinary MPI call. */
static mc_hang_rank stuck(int rank, int size)
{
    mc_hang_rank r;
    memset(&r, 0, sizeof r);
    r.rank = rank;
    r.world_size = size;
    r.job = "";
    r.board_state = MC_BOARD_RUNNING;
    r.alive = 1;
    r.in_mpi = 1;
    r.spawning = "";
    return r;
}

START_TEST(all_in_mpi_is_frozen)
{
    mc_hang_rank r[2] = {stuck(0, 2), stuck(1, 2)};
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 1);
}
END_TEST

START_TEST(a_rank_outside_mpi_is_not)
{
    mc_hang_rank r[2] = {stuck(0, 2), stuck(1, 2)};
    r[1].in_mpi = 0;        /* computing */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
}
END_TEST

START_TEST(ended_ranks_count_as_ended)
{
    mc_hang_rank r[3] = {stuck(0, 3), stuck(1, 3), stuck(2, 3)};
    r[1].board_state = MC_BOARD_FINALIZED;
    r[1].in_mpi = 0;
    r[2].alive = 0;         /* crashed inside its call */
    ck_assert_int_eq(mc_hang_frozen(r, 3, NULL, 0, NULL), 1);
    mc_hang_state st[3];
    mc_hang_states(r, 3, st);
    ck_assert_int_eq(st[0], MC_HANG_STUCK);
    ck_assert_int_eq(st[1], MC_HANG_ENDED);
    ck_assert_int_eq(st[2], MC_HANG_ENDED);
    /* Nobody stuck: a job that ends, not a hang. */
    r[0].board_state = MC_BOARD_FINALIZED;
    ck_assert_int_eq(mc_hang_frozen(r, 3, NULL, 0, NULL), 0);
}
END_TEST

START_TEST(threads_must_all_be_in_mpi)
{
    mc_hang_rank r[2] = {stuck(0, 2), stuck(1, 2)};
    r[0].app_threads = 1;   /* a second thread of the program, outside MPI */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
    r[0].in_mpi = 2;        /* both threads inside MPI calls */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 1);
    r[0].overflow = 1;      /* more threads called MPI than the board follows */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
}
END_TEST

START_TEST(joining_threads_and_one_caller)
{
    mc_hang_rank r[2] = {stuck(0, 2), stuck(1, 2)};
    r[0].app_threads = 2;   /* two workers; one inside MPI, one outside */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
    r[0].joining = 1;       /* the main thread joins: still one thread free */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
    r[0].in_mpi = 2;        /* both workers in MPI, the main one joining them */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 1);
    /* MPI_THREAD_FUNNELED: the main thread inside MPI blocks the rank's
     * MPI, whatever an idle OpenMP pool does */
    r[0].in_mpi = 1;
    r[0].joining = 0;
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
    r[0].one_caller = 1;
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 1);
    r[0].in_mpi = 0;        /* ... but not while it computes */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
}
END_TEST

START_TEST(waiting_for_the_outside_world_is_not)
{
    mc_hang_rank r[2] = {stuck(0, 2), stuck(1, 2)};
    r[0].in_outside_wait = 1;   /* MPI_Comm_accept: a client may come */
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
}
END_TEST

START_TEST(unknown_ranks_block_a_verdict)
{
    /* Rank 2 of 3 has no board (another node, or not at MPI_Init yet). */
    mc_hang_rank r[2] = {stuck(0, 3), stuck(1, 3)};
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 0);
    ck_assert_int_eq(mc_hang_all_known(r, 2), 0);
}
END_TEST

START_TEST(never_reached_init_is_named)
{
    mc_hang_rank r[2] = {stuck(0, 4), stuck(2, 4)};
    r[0].in_init = r[1].in_init = 1;
    int missing[4];
    size_t n = 0;
    ck_assert_int_eq(mc_hang_frozen(r, 2, missing, 4, &n), 1);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(missing[0], 1);
    ck_assert_int_eq(missing[1], 3);
    /* One rank already past MPI_Init: the missing ones may still come. */
    r[1].in_init = 0;
    ck_assert_int_eq(mc_hang_frozen(r, 2, missing, 4, &n), 0);
}
END_TEST

START_TEST(spawn_waits_for_its_children)
{
    mc_hang_rank r[3] = {stuck(0, 2), stuck(1, 2), stuck(0, 2)};
    r[0].in_spawn = r[1].in_spawn = 1;
    r[0].spawning = "spawn 0.1";
    r[2].job = "spawn 0.1";     /* one of two children there, in MPI_Init */
    r[2].board_state = MC_BOARD_INIT;
    r[2].in_init = 1;
    ck_assert_int_eq(mc_hang_frozen(r, 3, NULL, 0, NULL), 0);
    /* Both children there, all stuck: the spawn hangs. */
    mc_hang_rank all[4] = {r[0], r[1], r[2], r[2]};
    all[3].rank = 1;
    ck_assert_int_eq(mc_hang_frozen(all, 4, NULL, 0, NULL), 1);
    /* A spawn whose children's job nobody names (not started under the
     * checker): never judged. */
    all[0].spawning = "";
    ck_assert_int_eq(mc_hang_frozen(all, 4, NULL, 0, NULL), 0);
}
END_TEST

/* Every rank left stuck in MPI_Finalize alone: the job is finishing (the
 * watch gives it longer), and still frozen by the rule. */
START_TEST(finishing_in_finalize)
{
    mc_hang_rank r[3] = {stuck(0, 3), stuck(1, 3), stuck(2, 3)};
    r[0].in_finalize = r[1].in_finalize = 1;
    r[2].board_state = MC_BOARD_FINALIZED;      /* returned from MPI_Finalize */
    ck_assert_int_eq(mc_hang_frozen(r, 3, NULL, 0, NULL), 1);
    ck_assert_int_eq(mc_hang_finishing(r, 3), 1);
    /* A rank stuck in another call: an ordinary hang. */
    r[1].in_finalize = 0;
    ck_assert_int_eq(mc_hang_finishing(r, 3), 0);
    /* A rank with a second thread in another call (MPI_THREAD_MULTIPLE). */
    r[1].in_finalize = 1;
    r[1].in_mpi = 2;
    r[1].app_threads = 1;
    ck_assert_int_eq(mc_hang_finishing(r, 3), 0);
    /* Nobody stuck: nothing to finish. */
    mc_hang_rank ended[1] = {stuck(0, 1)};
    ended[0].board_state = MC_BOARD_FINALIZED;
    ck_assert_int_eq(mc_hang_finishing(ended, 1), 0);
}
END_TEST

/* A rank stuck in MPI_Init alone: the job is starting (the watch gives it
 * longer), and still frozen by the rule. */
START_TEST(starting_in_init)
{
    mc_hang_rank r[2] = {stuck(0, 2), stuck(1, 2)};
    r[0].in_init = r[1].in_init = 1;
    ck_assert_int_eq(mc_hang_frozen(r, 2, NULL, 0, NULL), 1);
    ck_assert_int_eq(mc_hang_starting(r, 2), 1);
    ck_assert_int_eq(mc_hang_finishing(r, 2), 0);
    /* The other rank through MPI_Init and waiting for it (in MPI_Finalize). */
    r[1].in_init = 0;
    r[1].in_finalize = 1;
    ck_assert_int_eq(mc_hang_starting(r, 2), 1);
    /* The other rank not there yet: still starting. */
    mc_hang_rank one[1] = {stuck(0, 2)};
    one[0].in_init = 1;
    ck_assert_int_eq(mc_hang_starting(one, 1), 1);
    /* No rank in MPI_Init: an ordinary hang. */
    r[0].in_init = 0;
    ck_assert_int_eq(mc_hang_starting(r, 2), 0);
    /* In MPI_Init, but another thread of the rank in another call. */
    r[0].in_init = 1;
    r[0].in_mpi = 2;
    ck_assert_int_eq(mc_hang_starting(r, 2), 0);
}
END_TEST

/* An RMA synchronization call with one-sided operations pending may move
 * them (MPICH's fence does an epoch's MPI_Get): its thread's processor
 * time is progress for 1 s plus 1 s a 64 MiB, no other call's. */
START_TEST(rma_sync_credit)
{
    ck_assert(mc_hang_rma_credit_s("MPI_Win_fence", 128.0 * 1024 * 1024) == 3.0);
    ck_assert(mc_hang_rma_credit_s("MPI_Win_flush_local_all", 1) > 1.0);
    ck_assert(mc_hang_rma_credit_s("MPI_Win_unlock", 64 * 1024 * 1024) == 2.0);
    ck_assert(mc_hang_rma_credit_s("MPI_Win_fence", 0) == 0);      /* nothing to move */
    ck_assert(mc_hang_rma_credit_s("MPI_Win_free", 1 << 20) == 0);  /* completes nothing */
    ck_assert(mc_hang_rma_credit_s("MPI_Recv", 1 << 20) == 0);
    ck_assert(mc_hang_rma_credit_s("MPI_Win_fenc", 1 << 20) == 0);
    ck_assert(mc_hang_rma_credit_s(NULL, 1 << 20) == 0);
}
END_TEST

START_TEST(recv_transfer_credit)
{
    ck_assert(mc_hang_data_credit_s(0) == 0);                        /* nothing moving */
    ck_assert(mc_hang_data_credit_s(16.0 * 1024 * 1024) == 2.0);
    ck_assert(mc_hang_data_credit_s(1) > 1.0);
    /* 4 GiB: minutes, not forever. */
    double big = mc_hang_data_credit_s(4.0 * 1024 * 1024 * 1024);
    ck_assert(big > 200 && big < 300);
}
END_TEST

START_TEST(local_calls_are_named)
{
    /* Local: they move or convert data, start or test an operation. */
    static const char *const local[] = {"MPI_Get", "MPI_Put", "MPI_Rget_accumulate", "MPI_Pack",
                                        "MPI_Pack_c", "MPI_Unpack_external", "MPI_Isend", "MPI_Ibcast",
                                        "MPI_Ineighbor_alltoallw", "MPI_Test", "MPI_Testsome",
                                        "MPI_Type_commit", "MPI_Type_create_struct_c", "MPI_Start",
                                        "MPI_Bsend", "MPI_Reduce_local", NULL};
    /* Not: they may wait for another process (or for the world outside). */
    static const char *const waiting[] = {"MPI_Send", "MPI_Recv", "MPI_Wait", "MPI_Waitall",
                                          "MPI_Barrier", "MPI_Win_fence", "MPI_Win_flush",
                                          "MPI_Win_lock", "MPI_Buffer_detach", "MPI_Comm_dup",
                                          "MPI_Finalize", "MPI_Init", "MPI_Probe", "MPI_Getx",
                                          "MPI_Ibarrier_init", "MPI_Comm_accept", "MPI_Type",
                                          "MPI_Allreduce_init", "MPI_Testy", "", NULL};
    for (const char *const *n = local; *n; n++)
        ck_assert_msg(mc_hang_local_call(*n), "%s should be local", *n);
    for (const char *const *n = waiting; *n; n++)
        ck_assert_msg(!mc_hang_local_call(*n), "%s should not be local", *n);
    ck_assert_int_eq(mc_hang_local_call(NULL), 0);
}
END_TEST

/* A board after the job: its rank was running, and its process is gone
 * with no exit status written (killed by SIGKILL, say). */
static mc_end_board gone(void)
{
    mc_end_board b = {.board_state = MC_BOARD_RUNNING, .known = 1};
    return b;
}

START_TEST(vanished_ranks_are_named)
{
    mc_end_board b[3] = {gone(), gone(), gone()};
    char v[3];
    b[2].board_state = MC_BOARD_INIT;       /* killed inside MPI_Init */
    ck_assert_uint_eq(mc_hang_vanished(b, 3, v), 3);
    ck_assert(v[0] && v[1] && v[2]);
    /* One still runs, one is on another node: neither is named. */
    b[0].alive = 1;
    b[1].known = 0;
    ck_assert_uint_eq(mc_hang_vanished(b, 3, v), 1);
    ck_assert(!v[0] && !v[1] && v[2]);
    /* Its exit handler ran (the state not written yet): it said so itself. */
    b[2].exit_known = 1;
    ck_assert_uint_eq(mc_hang_vanished(b, 3, v), 0);
}
END_TEST

START_TEST(explained_ends_name_nobody)
{
    mc_end_board b[2] = {gone(), gone()};
    char v[2];
    /* The program's MPI_Abort: the launcher killed the rest. */
    b[1].in_abort = 1;
    ck_assert_uint_eq(mc_hang_vanished(b, 2, v), 0);
    ck_assert(!v[0] && !v[1]);
    /* A rank that exited with a failing status after MPI_Finalize, or
     * with none written (killed there, or _exit): MPI's launchers end the
     * others then. */
    b[1] = (mc_end_board){.board_state = MC_BOARD_FINALIZED, .known = 1, .exit_known = 1, .exit_status = 1};
    ck_assert_uint_eq(mc_hang_vanished(b, 2, v), 0);
    b[1].exit_known = 0;
    ck_assert_uint_eq(mc_hang_vanished(b, 2, v), 0);
    /* ... but one that exited with status 0 explains nothing. */
    b[1].exit_known = 1;
    b[1].exit_status = 0;
    ck_assert_uint_eq(mc_hang_vanished(b, 2, v), 1);
    ck_assert(v[0] && !v[1]);
    b[1].board_state = MC_BOARD_EXITED;
    ck_assert_uint_eq(mc_hang_vanished(b, 2, v), 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hang_rule");
    TCase *tc = tcase_create("rule");
    tcase_add_test(tc, all_in_mpi_is_frozen);
    tcase_add_test(tc, a_rank_outside_mpi_is_not);
    tcase_add_test(tc, ended_ranks_count_as_ended);
    tcase_add_test(tc, threads_must_all_be_in_mpi);
    tcase_add_test(tc, joining_threads_and_one_caller);
    tcase_add_test(tc, waiting_for_the_outside_world_is_not);
    tcase_add_test(tc, unknown_ranks_block_a_verdict);
    tcase_add_test(tc, never_reached_init_is_named);
    tcase_add_test(tc, spawn_waits_for_its_children);
    tcase_add_test(tc, finishing_in_finalize);
    tcase_add_test(tc, starting_in_init);
    tcase_add_test(tc, local_calls_are_named);
    tcase_add_test(tc, rma_sync_credit);
    tcase_add_test(tc, recv_transfer_credit);
    tcase_add_test(tc, vanished_ranks_are_named);
    tcase_add_test(tc, explained_ends_name_nobody);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return mc_run_suite(suite(), CK_FORK_GETENV) ? 1 : 0;
}
