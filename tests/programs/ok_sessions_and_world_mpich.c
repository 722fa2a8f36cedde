/* EXPECT: OK  NP: 2  FLAVOR: mpich */
/*
 * Checks: one process using both MPI-4.0 models (sec. 11.3): a library opens
 * a session before the program calls MPI_Init, and closes it while the world
 * model goes on. MPI_Init is not "a second initialization", and the world
 * model is checked until MPI_Finalize. No finding.
 * MPICH only: Open MPI 4.1 has no sessions.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Session session;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session);
    MPI_Init(&argc, &argv);
    int rank, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Session_finalize(&session);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Barrier(dup);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
