/* EXPECT: OK  NP: 2  MODE: fast */
/* Same program as potential_deadlock_send_send_small.c, checked in fast mode:
 * sends never wait there, the buffered exchange completes and is not flagged. */
#include "potential_deadlock_send_send_small.c"
