/*
 * layout.h - where this process runs in the job: its host as the launcher
 * names it, its node's number and its rank on the node (layout.c).
 */
#ifndef MPICHECK_LAYOUT_H
#define MPICHECK_LAYOUT_H

#include "report.h"

/* Fills what this process knows of its place: from the launcher's PMIx
 * server when there is one, else from the launchers' environment
 * variables and gethostname. Unknown numbers are -1. */
void mc_layout_mine(mc_process_place *out);

#endif
