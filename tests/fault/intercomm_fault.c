/*
 * A process fails while an intercommunicator is created (issue 14, item 5):
 * groups {0, 1} and {2, 3}, MPI_ERRORS_RETURN everywhere, and world rank 3
 * kills itself just before MPI_Intercomm_create. A fault-tolerant MPI
 * returns an error at some survivors (or all); the checker must then say
 * which side got what, and nothing may hang. tests/intercomm_fault.sh runs
 * it, plainly first: an MPI whose survivors do not get through the call
 * cannot show what the checker does then, and the test says so.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int wrank;
    MPI_Comm local, inter = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN);
    if (wrank == 3)
        raise(SIGKILL);
    int rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 1, &inter);
    printf("SURVIVED %d rc=%d\n", wrank, rc);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
