/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_Start on a persistent request whose previous start has not
 * completed. MPI-4.0 sec. 3.9: "the request becomes active once the call is
 * made" and may be started again only once inactive (after MPI_Wait/MPI_Test
 * completed it). Rank 1 starts its receive twice before waiting. The real
 * MPI_Start is still called (the checker reports before it); errors are
 * returned so the program goes on, and everything is completed at the end.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Request req;
    if (rank == 1) {
        MPI_Recv_init(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &req);
        MPI_Start(&req);
        MPI_Start(&req);          /* the bug: still active */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
    } else if (rank == 0) {
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
