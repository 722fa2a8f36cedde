/*
 * inter.h - intercommunicators (issue 14, seed 001): their creation checked
 * before it can hang, and a uniform outcome after it.
 *
 * MPI_Intercomm_create: the local communicator's collective handshake
 * (src/coll/) already compares local_leader; here the two leaders exchange
 * what they pass (tag, the groups) over the checker's copy of
 * MPI_COMM_WORLD before the real call, inside the engine's wait loop, so a
 * leader that names the wrong process ends in the deadlock detector
 * instead of a hang. After the call, every process of both groups learns
 * whether all got an intercommunicator with the same groups, or all an
 * error (create.c). MPI_Intercomm_merge's high flags, and the outcome of
 * every call that makes a communicator from an intercommunicator, are
 * agreed over the intercommunicator's handshake communicator (merge.c).
 * docs/design.md ("Intercommunicators") explains the method.
 */
#ifndef MPICHECK_INTER_H
#define MPICHECK_INTER_H

#include "module.h"

extern const mc_module mc_inter_module;

/* MPI_Comm_spawn(_multiple), between the module's enter and the real call:
 * at the root, the commands and argument lists that start the children
 * under the checker (spawn.c). Returns 1 and sets both arrays (one entry
 * per command, valid until the call's leave), or 0: pass the program's. */
int mc_inter_spawn_args(char ***commands, char ****argvs);

/* The label checked parents gave this process's job (mc_st.job), or NULL:
 * not started by them. Read at MPI_Init, before mc_inter_spawned_start. */
const char *mc_inter_parent_label(void);

/* At MPI_Init of a process its checked parents started: the shadow of the
 * parent communicator, made with the parents (collective over both groups). */
void mc_inter_spawned_start(void);

#endif
