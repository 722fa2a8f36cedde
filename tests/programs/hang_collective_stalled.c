/* EXPECT: hang  NP: 2  TIMEOUT: 0.25  RANKS: 0,1  SAYS: MPI_Allreduce */
/*
 * Checks: hang_ok_slow_collective.c (its correct twin) with 512 KiB of
 * doubles and a real call that never returns on rank 1, which spins in
 * it; rank 0 waits in the same MPI_Allreduce.
 *
 * Why it is an error: the job never ends. A blocking collective every
 * member is in counts as progress only for a bounded processor time (1 s
 * plus 1 s a 16 MiB the call moves: 1.1 s here), since MPI spins in a
 * collective that never ends as it does in one that moves data. After
 * that the hang watch reports both ranks' calls.
 */
#define SLOW_S 1e9
#define COUNT (64 * 1024)
#include "hang_ok_slow_collective.c"
