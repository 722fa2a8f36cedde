/* EXPECT: OK  NP: 2  FLAVOR: openmpi */
/*
 * Checks: correct traffic between parents and the children they spawned,
 * now that the checker starts the children under itself and checks the
 * intercommunicator (src/inter/spawn.c): MPI_Comm_spawn_multiple with two
 * commands (this program twice, with different arguments, one with an
 * MPI_Info "path" key), messages both ways with MPI_ANY_SOURCE, the
 * intercommunicator collectives with MPI_ROOT and MPI_PROC_NULL at the
 * roots, MPI_Comm_dup of the intercommunicator, MPI_Intercomm_merge and a
 * collective on the merge, then every communicator freed or disconnected.
 * Each child checks its arguments came through unchanged and that the
 * checker's own variable is not left in its environment. No finding
 * expected.
 * Open MPI only: MPI_Comm_spawn fails under this MPICH 4.0.2 (ch4:ucx,
 * Hydra) even without mpicheck.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(int ok, const char *what)
{
    if (!ok)
        fprintf(stderr, "ok_spawn_checked: wrong: %s\n", what);
    return !ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter, dup, merged;
    int rank, size, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_parent(&parent);
    int am_parent = parent == MPI_COMM_NULL;
    if (am_parent) {
        char *cmds[2] = {argv[0], argv[0]};
        char *a0[] = {"first", "two words", NULL}, *a1[] = {"second", NULL};
        char **argvs[2] = {a0, a1};
        int np[2] = {1, 2};
        MPI_Info infos[2];
        MPI_Info_create(&infos[0]);
        MPI_Info_create(&infos[1]);
        MPI_Info_set(infos[1], "path", "/nonexistent-dir");
        MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
        MPI_Info_free(&infos[0]);
        MPI_Info_free(&infos[1]);
    } else {
        inter = parent;
        int first = argc == 3 && strcmp(argv[1], "first") == 0 && strcmp(argv[2], "two words") == 0;
        int second = argc == 2 && strcmp(argv[1], "second") == 0;
        bad |= check(first || second, "the child's arguments");
        bad |= check(getenv("MPICHECK_INTERNAL_SPAWNED") == NULL, "the checker's variable is left");
    }
    int rsize;
    MPI_Comm_remote_size(inter, &rsize);
    bad |= check(rsize == (am_parent ? 3 : 2), "remote size");
    /* Every child sends its rank to parent 0, which takes them in any order. */
    if (am_parent && rank == 0) {
        int sum = 0;
        for (int i = 0; i < rsize; i++) {
            int v = -1;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 7, inter, MPI_STATUS_IGNORE);
            sum += v;
        }
        bad |= check(sum == 0 + 1 + 2, "sum of the children's ranks");
    } else if (!am_parent) {
        MPI_Send(&rank, 1, MPI_INT, 0, 7, inter);
    }
    /* Broadcast from parent 0 to the children; a reduction back to it. */
    int v = 42, r = 0;
    if (am_parent)
        MPI_Bcast(&v, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    else
        MPI_Bcast(&v, 1, MPI_INT, 0, inter);
    bad |= check(v == 42, "broadcast value");
    int one = 1;
    if (am_parent)
        MPI_Reduce(NULL, &r, 1, MPI_INT, MPI_SUM, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    else
        MPI_Reduce(&one, NULL, 1, MPI_INT, MPI_SUM, 0, inter);
    if (am_parent && rank == 0)
        bad |= check(r == 3, "reduction at the root");
    MPI_Barrier(inter);
    MPI_Comm_dup(inter, &dup);
    int all = 0;
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, dup);
    bad |= check(all == (am_parent ? 3 : 2), "allreduce on the duplicate (the remote group's sum)");
    MPI_Comm_free(&dup);
    MPI_Intercomm_merge(inter, !am_parent, &merged);
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, merged);
    bad |= check(all == 5, "allreduce on the merge");
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    MPI_Finalize();
    return bad;
}
