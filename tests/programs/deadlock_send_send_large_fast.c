/* EXPECT: deadlock  NP: 2  MODE: fast */
/* Same program as deadlock_send_send_large.c, checked in fast mode: the 16 MiB
 * sends block inside MPI itself (rendezvous), so it is a deadlock there too. */
#include "deadlock_send_send_large.c"
