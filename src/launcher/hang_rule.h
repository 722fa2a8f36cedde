/*
 * hang_rule.h - when a job is hung, decided from one look at its ranks'
 * boards (report/board_layout.h). No I/O here: launcher/hang.c reads the
 * boards and the processes and keeps the time; tests/unit/test_hang_rule.c
 * tries the rule on made-up jobs.
 *
 * The rule (docs/design.md, "Hangs"): a job is frozen when every rank of
 * it is stuck (each of its program's threads inside an MPI call or joining
 * another; under a thread level below MPI_THREAD_MULTIPLE, one thread
 * inside an MPI call, since no other may call MPI meanwhile) or has
 * ended (returned from MPI_Finalize, exited, or gone), at least one is
 * stuck, and every rank is known. It is hung when it stays frozen with no
 * progress (launcher/hang.c) for --hang-timeout. A rank is never stuck
 * while it waits for the world outside the job (MPI_Comm_accept,
 * MPI_Comm_connect, MPI_Comm_join), or for a spawned job whose processes
 * are not all there yet (they may compute before their MPI_Init), or when
 * it has more threads calling MPI than its board follows.
 */
#ifndef MPICHECK_HANG_RULE_H
#define MPICHECK_HANG_RULE_H

#include <stddef.h>
#include <stdint.h>

typedef enum { MC_HANG_FREE = 0, MC_HANG_STUCK, MC_HANG_ENDED } mc_hang_state;

/* What one look at a rank's board and process says. */
typedef struct {
    int rank, world_size;       /* world_size -1: not known */
    const char *job;            /* "" the job mpicheck started */
    int board_state;            /* MC_BOARD_* */
    int alive;                  /* the process runs (not gone, not a zombie) */
    int overflow;
    int app_threads;            /* the program's threads besides the main one */
    int joining;                /* ... of them and the main one, those in pthread_join */
    int one_caller;             /* the thread level lets one thread at a time call MPI */
    int in_mpi;                 /* threads inside an MPI call */
    int in_init;                /* ... of which in MPI_Init / MPI_Init_thread */
    int in_outside_wait;        /* ... in MPI_Comm_accept / connect / join */
    int in_spawn;               /* ... in MPI_Comm_spawn / spawn_multiple */
    int in_finalize;            /* ... in MPI_Finalize */
    const char *spawning;       /* the label of the job it spawns ("" none) */
} mc_hang_rank;

/* Each rank's state by the rule (out[i] for ranks[i]). */
void mc_hang_states(const mc_hang_rank *ranks, size_t n, mc_hang_state *out);

/* 1 when the job is frozen. missing (may be NULL) gets the first job's
 * ranks without a board, when the only reason they are not stuck is that
 * they never called MPI_Init while every other rank waits inside it (then
 * the job is frozen too: "never reached MPI_Init"); *nmissing counts them
 * (at most max are written). */
int mc_hang_frozen(const mc_hang_rank *ranks, size_t n, int *missing, size_t max, size_t *nmissing);

/* 1 when the job is finishing: every rank that is stuck is inside
 * MPI_Finalize alone (the others ended). The program's part is over and MPI
 * tears the job down, which on a loaded machine, or with a spawned job to
 * disconnect from, can outlast --hang-timeout; launcher/hang.c gives such
 * a job MC_HANG_FINISHING_FACTOR times as long before it calls it hung. */
int mc_hang_finishing(const mc_hang_rank *ranks, size_t n);
#define MC_HANG_FINISHING_FACTOR 3

/* 1 when the job is starting: a rank that is stuck is inside MPI_Init or
 * MPI_Init_thread alone (the others may wait for it, or not have reached
 * MPI_Init yet). What MPI_Init waits for is the launcher's wire-up (its
 * daemons, PMIx), whose progress the watch does not see; on a machine
 * loaded far beyond its cores (three MPI jobs of busy-polling ranks beside
 * it) it took over 12 s (the MPI Bugs Initiative's correct codes at
 * --timeout=2 got a false `hang` in MPI_Init, with the other rank in
 * MPI_Init, in MPI_Finalize, or not started yet). launcher/hang.c gives
 * such a job MC_HANG_STARTING_FACTOR times as long. */
int mc_hang_starting(const mc_hang_rank *ranks, size_t n);
#define MC_HANG_STARTING_FACTOR 5

/* 1 when name (an MPI function) is one of MPI's local procedures that may
 * take long: it moves or converts data, starts an operation or tests one
 * (MPI_Get, MPI_Pack, MPI_Isend, MPI_Test, ...). Its completion does not
 * depend on another process's call, so a thread inside one that uses the
 * processor computes, as it would outside MPI: launcher/hang.c counts its
 * processor time as progress. */
int mc_hang_local_call(const char *name);

/* The processor time (seconds) a thread inside name may spend as progress
 * when its process started `pending` bytes of one-sided operations since
 * its last RMA synchronization call: name is one (MPI_Win_fence,
 * MPI_Win_unlock, MPI_Win_flush, ...), where MPI may move them all (MPICH
 * defers an epoch's MPI_Get calls to its closing MPI_Win_fence: 100,000 of
 * 128 KiB took 48 s there). 1 s and one more per MC_HANG_RMA_RATE bytes, a
 * rate far below what shared memory or a network moves; 0 for any other
 * call or nothing pending. Bounded, so a deadlock inside such a call
 * (MPI spins there too) is still reported. */
#define MC_HANG_RMA_RATE (64.0 * 1024 * 1024)
double mc_hang_rma_credit_s(const char *name, uint64_t pending);

/* The processor time (seconds) a thread may spend as progress while it
 * moves `moving` bytes that no other process's call has to release: in a
 * wait that receives messages already matched (their envelopes were
 * compared and their real receives are posted: runtime/complete.c), or
 * in a blocking collective whose handshake found every member in the same
 * call (coll/handshake.c). MPI completes either without another call, and
 * a huge or finely typed message or collective can take longer than
 * --hang-timeout inside one call (MPICH unpacks 64 MiB of 1-byte vector
 * elements in 1 s on this machine; an MPI_Allreduce of 1 GiB at 2 ranks
 * takes 4 to 6 s). 1 s and one more per MC_HANG_DATA_RATE bytes, a
 * quarter of that unpacking rate; 0 with nothing moving. Bounded, so a
 * transfer MPI never ends is still reported. */
#define MC_HANG_DATA_RATE (16.0 * 1024 * 1024)
double mc_hang_data_credit_s(uint64_t moving);

/* 1 when every job the boards show has all its ranks' boards. */
int mc_hang_all_known(const mc_hang_rank *ranks, size_t n);

/* What one board says once the job has ended (launcher/vanished.c). */
typedef struct {
    int board_state;            /* MC_BOARD_* */
    int known;                  /* the launcher can tell whether its process runs (it sees the same
                                 * pids, and the board is not a copy from another node) */
    int alive;
    int in_abort;               /* a thread of it is in MPI_Abort */
    int exit_known, exit_status;    /* what its exit handler wrote */
} mc_end_board;

/* After a failed job: the ranks that vanished (vanished[i] set; their
 * number returned). A rank vanished when its board says it was still
 * running (in or after MPI_Init, before the end of MPI_Finalize), its
 * process is gone, and no exit handler of it ran: it was killed by a
 * signal no handler of the checker saw. 0 when the end has another
 * cause the boards show, after which MPI's launchers end the other
 * processes: a rank called MPI_Abort, or one exited after MPI_Finalize
 * with a failing status or with none written (killed there, or _exit). */
size_t mc_hang_vanished(const mc_end_board *b, size_t n, char *vanished);

#endif
