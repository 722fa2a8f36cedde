/* EXPECT: OK  NP: 2 */
/*
 * Checks: a program that asks for the error handlers of its communicators,
 * windows and files again and again and frees each one it gets (mpi4py's
 * test_errhandler, which ended in `free(): invalid pointer` inside Open
 * MPI's MPI_Finalize under the checker).
 *
 * Why it is correct: MPI_Comm_get_errhandler (and the window and file
 * forms) returns a new reference to the handler, which the program may
 * free with MPI_Errhandler_free, predefined handlers included (MPI-4.0
 * sec. 9.3.1 and 9.3.4). The checker puts a handler of its own where the
 * program has MPI_ERRORS_ARE_FATAL and hands the program
 * MPI_ERRORS_ARE_FATAL back from the get calls; that handle must be a
 * reference the program owns, or each free takes one of MPI's own (Open
 * MPI counts references to predefined handlers too, and freed the
 * predefined object at the end).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAIL: %s\n", what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    MPI_Errhandler eh, first;
    MPI_Comm dup;
    MPI_Init(&argc, &argv);

    for (int i = 0; i < 100; i++) {
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
        check(eh == MPI_ERRORS_ARE_FATAL, "MPI_COMM_WORLD's handler is MPI_ERRORS_ARE_FATAL");
        MPI_Errhandler_free(&eh);
        check(eh == MPI_ERRHANDLER_NULL, "the freed handle is MPI_ERRHANDLER_NULL");
    }
    /* mpi4py's testCommGetSetErrhandler: keep the old handler, set another,
     * get it, free both references, put the old one back. */
    MPI_Comm comms[2] = {MPI_COMM_SELF, MPI_COMM_WORLD};
    MPI_Errhandler sets[4] = {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN};
    for (int c = 0; c < 2; c++)
        for (int s = 0; s < 4; s++) {
            MPI_Comm_get_errhandler(comms[c], &first);
            MPI_Comm_set_errhandler(comms[c], sets[s]);
            MPI_Comm_get_errhandler(comms[c], &eh);
            check(eh == sets[s], "the handler set is the handler got");
            MPI_Errhandler_free(&eh);
            MPI_Comm_set_errhandler(comms[c], first);
            MPI_Errhandler_free(&first);
        }
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    for (int i = 0; i < 50; i++) {
        MPI_Comm_get_errhandler(dup, &eh);
        MPI_Errhandler_free(&eh);
    }
    MPI_Comm_free(&dup);

    MPI_Win win;
    int *cell;
    /* MPI_Win_allocate: the test harness's Open MPI settings refuse
     * MPI_Win_create on the program's own memory (MPI_ERR_WIN). */
    MPI_Win_allocate(sizeof *cell, sizeof *cell, MPI_INFO_NULL, MPI_COMM_WORLD, &cell, &win);
    for (int i = 0; i < 50; i++) {
        MPI_Win_get_errhandler(win, &eh);
        check(eh == MPI_ERRORS_ARE_FATAL, "a window's handler is MPI_ERRORS_ARE_FATAL");
        MPI_Errhandler_free(&eh);
    }
    MPI_Win_free(&win);

    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    for (int i = 0; i < 50; i++) {
        MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
        check(eh == MPI_ERRORS_ARE_FATAL, "MPI_FILE_NULL's handler is MPI_ERRORS_ARE_FATAL");
        MPI_Errhandler_free(&eh);
    }
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
