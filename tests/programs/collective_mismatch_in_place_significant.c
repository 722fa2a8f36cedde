/* EXPECT: collective-mismatch  NP: 3  RANKS: 2 */
/*
 * Checks: MPI_IN_PLACE in a buffer a non-root uses: rank 2's recvbuf of
 * MPI_Scatterv (rank 0 is the root). The buffers a non-root may fill with
 * anything (its recvbuf of MPI_Gather, its sendbuf of MPI_Scatter) are left
 * alone (collective_mismatch_ok_in_place_ignored.c); this one is not.
 *
 * Why it is an error: only the root of MPI_Scatter(v) may give MPI_IN_PLACE,
 * as its recvbuf (MPI-4.0 sec. 6.6); a non-root receives its part into
 * recvbuf, which MPI would take the constant's address for. The rank itself
 * reports it, before the call.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, all[3] = {1, 2, 3}, counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2}, got = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Scatterv(rank == 0 ? all : MPI_IN_PLACE, counts, displs, MPI_INT,
                 rank == 2 ? MPI_IN_PLACE : (void *)&got, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
