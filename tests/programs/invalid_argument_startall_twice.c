/* EXPECT: invalid-argument  NP: 2  RANKS: 0 */
/*
 * Checks: rank 0 passes the same persistent send request twice in one
 * MPI_Startall.
 *
 * Why it is an error: MPI_Startall starts its requests as MPI_Start would,
 * one after the other (MPI-4.0 sec. 3.9), so the second start finds the
 * request active; starting an active request is erroneous. The checker
 * reports it before MPI sees it and names where the request was made.
 * What MPI then does is undefined (MPICH 4.0 with UCX starts the send
 * twice and warns of an unmatched message at MPI_Finalize), so the
 * program ends there with MPI_Abort.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 7;
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
        r[1] = r[0];
        MPI_Startall(2, r);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
