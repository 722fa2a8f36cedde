/*
 * collect.h - the launcher's collector for ranks on nodes that do not see
 * its part directory (collect.c; the protocol is report/relay_wire.h).
 */
#ifndef MPICHECK_LAUNCHER_COLLECT_H
#define MPICHECK_LAUNCHER_COLLECT_H

#include <stddef.h>

/* Listens on a TCP port of every address, writes the token into dir and
 * the ranks' spec (MC_RELAY_ENV's value) into spec. 0, or -1 with a
 * warning (the job still runs: ranks that see dir write there). */
int mc_collect_start(const char *dir, char *spec, size_t cap);

/* After the job: takes what is still on its way (every connection closed,
 * or 3 s without data), then stops. */
void mc_collect_finish(void);

#endif
