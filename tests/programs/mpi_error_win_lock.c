/* EXPECT: mpi-error  NP: 2  RANKS: 0 */
/*
 * Checks: an error MPI raises on a window under its default error handler
 * MPI_ERRORS_ARE_FATAL: rank 0 locks the window with a lock type that does
 * not exist. The checker reports the call first (mpi-error), then the job
 * ends as MPI would end it. The window's handler still reads back as
 * MPI_ERRORS_ARE_FATAL (checked before the bug; the program fails if not).
 *
 * Why it is an error: the lock type must be MPI_LOCK_EXCLUSIVE or
 * MPI_LOCK_SHARED (MPI-4.0 sec. 12.5.3), and a window's default error
 * handler ends the job on any error (sec. 9.3).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, *buf;
    MPI_Win win;
    MPI_Errhandler eh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &buf, &win);
    MPI_Win_get_errhandler(win, &eh);
    if (eh != MPI_ERRORS_ARE_FATAL) {
        fprintf(stderr, "TEST FAILED: the window's handler does not read back as MPI_ERRORS_ARE_FATAL\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Errhandler_free(&eh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Win_lock(12345, 1, 0, win);   /* the bug: no such lock type */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
