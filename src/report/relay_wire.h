/*
 * relay_wire.h - what a rank and the launcher say to each other over TCP
 * when the rank's node does not see the launcher's part directory (a job
 * across nodes without a shared /tmp): the rank's side is report/relay.c,
 * the launcher's launcher/collect.c. No MPI here.
 *
 * The launcher listens on one TCP port and tells the ranks where, in the
 * environment (MPICHECK_INTERNAL_COLLECTOR = "<token>@<port>@<addr>,<addr>"),
 * and writes the token into its part directory (MC_RELAY_TOKEN_FILE): a
 * rank that reads the same token there shares the directory and writes its
 * files itself; any other relays. Every connection starts with one line,
 *
 *   mpicheck-relay 1 <token> <kind> <name>\n
 *
 * answered by "ok\n" or "ok terminal\n" (the launcher prints the findings
 * on its terminal) or "no\n". Kinds:
 *   append  then bytes, appended to the part directory's file <name>
 *           ("rank-3.jsonl": part lines, as a local rank appends them)
 *   write   then bytes, written to <name> from its start ("deadlock.dot")
 *   wait    then frames of sizeof(mc_board_wait): the wait section of rank
 *           <name>'s board, each frame replacing the last
 *   ask     <name> is a world rank that ended: the launcher answers one
 *           line "<rank> <fn> <mod> <off>\n" per rank whose latest wait
 *           waits for it, then "end\n"
 */
#ifndef MPICHECK_RELAY_WIRE_H
#define MPICHECK_RELAY_WIRE_H

#define MC_RELAY_ENV "MPICHECK_INTERNAL_COLLECTOR"
#define MC_RELAY_TOKEN_FILE "collector"
#define MC_RELAY_HELLO "mpicheck-relay 1"
#define MC_RELAY_LINE_MAX 512       /* a hello or an answer line, '\n' included */

/* Whether name may be a file of the part directory: [A-Za-z0-9._-], not
 * starting with '.', at most 128 characters. */
static inline int mc_relay_name_ok(const char *name)
{
    int n = 0;
    if (!name || !name[0] || name[0] == '.')
        return 0;
    for (; name[n]; n++) {
        char c = name[n];
        if (n >= 128 || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                          || c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

#endif
