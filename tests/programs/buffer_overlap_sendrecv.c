/* EXPECT: buffer-overlap  NP: 2  RANKS: 0,1 */
/*
 * Checks: each rank calls MPI_Sendrecv with a send buffer of ints 0..9 of
 * an array and a receive buffer of ints 5..14 of the same array.
 *
 * Why it is an error: an OUT argument may not be aliased with any other
 * argument (MPI-4.0 sec. 2.3): MPI may write received ints 5..9 before it
 * has read them for the send, so what the peer gets depends on the order
 * MPI copies in. (MPI_Sendrecv_replace is the call for one buffer.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[15];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 15; i++)
        a[i] = i;
    int peer = 1 - rank;
    if (rank < 2)
        MPI_Sendrecv(a, 10, MPI_INT, peer, 0, a + 5, 10, MPI_INT, peer, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
