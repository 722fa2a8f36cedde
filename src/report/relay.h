/*
 * relay.h - a rank's link to the launcher when its node does not see the
 * launcher's part directory (relay_wire.h has the protocol).
 */
#ifndef MPICHECK_RELAY_H
#define MPICHECK_RELAY_H

#include <stdint.h>
#include <stdio.h>

/* Reads the launcher's spec (MC_RELAY_ENV's value, NULL: none) and decides
 * once whether this process relays: the spec is there and part_dir does
 * not hold the launcher's token. */
void mc_relay_setup(const char *spec, const char *part_dir);

/* 1: this process sends its part files to the launcher. */
int mc_relay_remote(void);
/* 1: a launcher is listening (the job may span nodes), whatever this
 * process does itself. */
int mc_relay_known(void);
/* 1: the launcher said it prints the findings (its terminal report). */
int mc_relay_terminal(void);

/* A connection of kind ("append", "write", "wait") for name, after the
 * launcher accepted it: a socket, or -1 (the launcher is not reachable). */
int mc_relay_connect(const char *kind, const char *name);
/* The same as a stdio stream whose writes never raise SIGPIPE; NULL when
 * the launcher is not reachable. */
FILE *mc_relay_stream(const char *kind, const char *name);
/* Sends all of buf on fd without SIGPIPE: 0, or -1. */
int mc_relay_send(int fd, const void *buf, size_t len);

/* Asks the launcher which ranks' latest relayed waits wait for rank dead
 * (and those of the launcher's own node). Up to max answers into the
 * arrays; returns how many, 0 when none or not reachable. Bounded in time
 * (about a second): called from a dying rank's handler. */
int mc_relay_ask(int dead, int *ranks, int *fns, uint64_t *mods, uint64_t *offs, int max);

#endif
