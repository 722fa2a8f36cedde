/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: an MPI_Gatherv where the root's recvcounts are {1, 2, 2} but rank
 * 2 sends 3 ints.
 *
 * Why it is an error: member i's sendcount x sendtype must match the root's
 * recvcounts[i] x recvtype (MPI-3.1 sec. 5.5, MPI_Gatherv: "the type
 * signature associated with sendcount, sendtype on process i must be equal
 * to the type signature associated with recvcounts[i], recvtype at the
 * root"). MPI may truncate or write past the root's buffer.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, send[3] = {7, 7, 7}, recv[8] = {0};
    int counts[3] = {1, 2, 2}, displs[3] = {0, 1, 3};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = rank == 2 ? 3 : counts[rank];
    MPI_Gatherv(send, n, MPI_INT, recv, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
