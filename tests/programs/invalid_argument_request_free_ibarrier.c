/* EXPECT: invalid-argument  NP: 3  RANKS: 1 */
/*
 * Checks: rank 1 starts an MPI_Ibarrier and frees its request with
 * MPI_Request_free instead of completing it; the other ranks wait for
 * theirs with MPI_Wait.
 *
 * Why it is an error: "It is erroneous to call MPI_REQUEST_FREE or
 * MPI_CANCEL for a request associated with a nonblocking collective
 * operation" (MPI-4.0 sec. 6.12). The checker reports it with the
 * MPI_Ibarrier's call site, keeps the request and completes it itself, so
 * the job still ends.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    if (rank == 1)
        MPI_Request_free(&r);
    else
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
