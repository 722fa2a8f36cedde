/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: an MPI_Alltoallv where every rank sends 1 int to each peer, but
 * rank 1 expects 2 ints from rank 0.
 *
 * Why it is an error: sendcounts[j] x sendtype at rank i must match
 * recvcounts[i] x recvtype at rank j (MPI-3.1 sec. 5.8). The checker
 * compares every pair through an exchange along the operation's own
 * pattern, and names the rank that found the difference.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, send[3] = {1, 2, 3}, recv[6] = {0};
    int scounts[3] = {1, 1, 1}, sdispls[3] = {0, 1, 2};
    int rcounts[3] = {1, 1, 1}, rdispls[3] = {0, 2, 4};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        rcounts[0] = 2;
    MPI_Alltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
