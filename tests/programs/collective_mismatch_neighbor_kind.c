/* EXPECT: collective-mismatch  NP: 4 */
/*
 * Checks: on a periodic 2 x 2 Cartesian communicator, ranks 0, 1 and 3 call
 * MPI_Neighbor_allgather while rank 2 calls MPI_Neighbor_alltoall, with
 * the same counts and types (1 MPI_INT per neighbor), so the amounts of
 * data even agree.
 *
 * Why it is an error: collective calls on a communicator, the neighborhood
 * collectives included, must be the same operation in the same order on
 * every member (MPI-3.1 sec. 5.13 and 7.6; MPI-4.0 sec. 6.14 and 8.6); an
 * allgather never matches an alltoall. What MPI does is undefined: Open
 * MPI 4.1 and MPICH 4.0 finish without a word, rank 2's neighbors holding
 * data of another operation (another library could hang). The checker
 * compares the operation every member called before the real call,
 * reports, and ends the job.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, dims[2] = {2, 2}, periods[2] = {1, 1}, send[4], recv[4];
    MPI_Comm cart;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    for (int k = 0; k < 4; k++)
        send[k] = rank;
    if (rank == 2)
        MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart);
    else
        MPI_Neighbor_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, cart);
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
