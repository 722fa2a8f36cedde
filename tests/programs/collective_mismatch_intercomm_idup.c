/* EXPECT: collective-mismatch  NP: 4 */
/*
 * Checks: an intercommunicator between {0, 1} and {2, 3}, copied with
 * MPI_Comm_idup; on the copy the first group calls MPI_Barrier and the
 * second MPI_Allreduce.
 *
 * Why it is an error: all processes of both groups must call the same
 * collective on an intercommunicator (MPI-3.1 sec. 5.2.2). The copy's
 * handshakes run on a nonblocking copy of the parent's handshake
 * communicator, made while the application's idup runs.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int wrank, x = 1, y = 0;
    MPI_Comm local, inter, copy;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 4, &inter);
    MPI_Comm_idup(inter, &copy, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (inA)
        MPI_Barrier(copy);
    else
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, copy);
    MPI_Comm_free(&copy);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
