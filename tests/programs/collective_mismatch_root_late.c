/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: an MPI_Bcast where rank 2 names root 1 and the others root 0,
 * in the 100th collective of the communicator: long after the checker
 * runs its handshakes by point-to-point (src/coll/hs_p2p.c), which must
 * find what the first handshakes find (collective_mismatch_root.c).
 *
 * Why it is an error: "the argument root must have identical values on all
 * processes" (MPI-3.1 sec. 5.4).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 99; i++)
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(buf, 4, MPI_INT, rank == 2 ? 1 : 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
