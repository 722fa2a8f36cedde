/* EXPECT: type-mismatch  NP: 2  RANKS: 0,1 */
/*
 * Checks: rank 1 posts MPI_Irecv for one MPI_INT and frees the request at
 * once with MPI_Request_free; rank 0 then sends four MPI_INTs to it.
 *
 * Why it is an error: the message is longer than the receive (MPI-4.0 sec.
 * 3.2.5: a truncation error). Once the request is freed MPI can no longer
 * return that error to the program: "such an error must be treated as
 * fatal" (sec. 3.7.3), and whatever MPI prints has lost the receive's
 * context (seed 000, point 1). The checker keeps following the freed
 * receive and reports the mismatch with the MPI_Irecv that posted it
 * (besides the request-free-active warning on the free).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, one = 0, four[4] = {1, 2, 3, 4};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Irecv(&one, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
    } else if (rank == 0) {
        MPI_Send(four, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
