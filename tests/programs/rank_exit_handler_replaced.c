/* EXPECT: rank-exit  NP: 2  TIMEOUT: 1  RANKS: 0,1  SAYS: no+word+of+their+own|rank+0+in+MPI_Recv */
/*
 * Checks: after MPI_Init the program installs its own handler of SIGSEGV
 * over the checker's, one that prints a line, restores the default action
 * and raises the signal again (what libgfortran's backtrace handler does;
 * a coarray program's runtime calls MPI_Init before installing it). Then
 * rank 1 writes through a null pointer while rank 0 waits in MPI_Recv.
 *
 * Why it is an error: rank 1 dies without MPI_Finalize and the job fails.
 * The checker's handler never runs, so the rank says nothing; the launcher
 * finds its board still running and its process gone (launcher/vanished.c).
 * Before, the report said "no errors found" (seen with OpenCoarrays).
 */
#include <mpi.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void backtrace_handler(int sig)
{
    static const char line[] = "Program received signal SIGSEGV: Segmentation fault\n";
    signal(sig, SIG_DFL);
    if (write(STDERR_FILENO, line, sizeof line - 1) < 0)
        _exit(128 + sig);
    raise(sig);
}

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    signal(SIGSEGV, backtrace_handler);     /* over the checker's */
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        volatile int *p = (volatile int *)0;
        *p = 1;
    }
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
