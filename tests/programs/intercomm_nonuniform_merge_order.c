/* EXPECT: intercomm-nonuniform  NP: 4  FLAVOR: openmpi  SKIPPED: unchecked-communicator */
/*
 * Checks: the program of intercomm_mismatch_merge_high.c (included below):
 * MPI_Intercomm_merge of an intercommunicator between {0, 1} and {2, 3},
 * where world rank 0 passes high = 1 and world rank 1 high = 0.
 *
 * Why it is an error: all processes of one group must pass the same high
 * value (MPI-3.1 sec. 6.6.2). Open MPI 4.1 then gives world rank 0 and
 * world rank 1 the merged communicator with its ranks in different orders:
 * the outcome check after the call compares every process's view of the new
 * group and reports intercomm-nonuniform (besides the intercomm-mismatch of
 * the high flags before it). The checker makes no private copy of such a
 * communicator (a collective over it could pair different processes), so
 * the run counts it as unchecked.
 */
#include "intercomm_mismatch_merge_high.c"
