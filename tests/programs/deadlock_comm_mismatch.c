/* EXPECT: deadlock  NP: 2  CAUSE: communicator */
/*
 * Checks: a deadlock that is really a communicator mismatch is reported
 * with its likely cause. Rank 0 sends on a duplicate of MPI_COMM_WORLD and
 * then waits for an answer; rank 1 waits for the message on
 * MPI_COMM_WORLD itself, with the same source and tag. The report adds
 * "world rank 0 sent a message with tag 5 on comm#... that no receive
 * took, and this receive waits on MPI_COMM_WORLD: a communicator
 * mismatch?".
 *
 * Why it is an error: a message is received only on the communicator it
 * was sent on (MPI-4.0 sec. 3.5); both ranks wait forever.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Comm lib;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &lib);
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 5, lib);
        MPI_Recv(&v, 1, MPI_INT, 1, 6, lib, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);   /* the bug: not lib */
        MPI_Send(&v, 1, MPI_INT, 0, 6, lib);
    }
    MPI_Comm_free(&lib);
    MPI_Finalize();
    return 0;
}
