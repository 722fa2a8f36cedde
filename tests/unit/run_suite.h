/*
 * run_suite.h - the runner every unit test's main() ends with: runs the
 * Check suite (fork: CK_FORK_GETENV, or CK_NOFORK when the tests share
 * state such as an initialized MPI) and returns how many tests failed.
 */
#ifndef MPICHECK_RUN_SUITE_H
#define MPICHECK_RUN_SUITE_H

#include <check.h>

static inline int mc_run_suite(Suite *s, enum fork_status fork)
{
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, fork);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed;
}

#endif
