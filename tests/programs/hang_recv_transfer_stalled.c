/* EXPECT: hang  NP: 2  TIMEOUT: 0.25  RANKS: 0,1  SAYS: MPI_Wait */
/*
 * Checks: deadlock_ok_slow_transfer.c (its correct twin) with a message of
 * 1 MiB whose data never arrives: rank 1's MPI_Wait for it spins forever,
 * and rank 0 waits for rank 1's reply.
 *
 * Why it is an error: the job never ends. A wait for the data of a
 * matched message is no deadlock, and counts as progress only for a
 * bounded processor time (1 s plus 1 s a 16 MiB), since MPI spins in a
 * transfer that never ends as it does in one that moves data. After that
 * the hang watch reports both ranks' calls.
 */
#define SLOW_S 1e9
#define BYTES (1024 * 1024)
#include "deadlock_ok_slow_transfer.c"
