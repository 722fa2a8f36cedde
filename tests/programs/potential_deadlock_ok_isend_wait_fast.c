/* EXPECT: OK  NP: 2  MODE: fast */
/*
 * The same unsafe exchange as potential_deadlock_isend_wait.c, in fast mode:
 * no send waits for its receive there, so nothing is reported (fast mode
 * finds only what actually happened in this run).
 */
#include "potential_deadlock_isend_wait.c"
