/* EXPECT: collective-mismatch  NP: 2 */
/*
 * Checks: an MPI_Reduce where rank 1, not the root, passes MPI_IN_PLACE as
 * sendbuf. The rank itself reports it, before the call.
 *
 * Why it is an error: only the root may give MPI_IN_PLACE (as sendbuf) for
 * MPI_Reduce (MPI-3.1 sec. 5.9.1); elsewhere MPI takes the constant for a
 * buffer address. Whatever MPI then does, the finding is written first.
 */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv)
{
    int rank, v = 1, out = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(rank == 1 ? MPI_IN_PLACE : &v, rank == 0 ? &out : NULL, 1, MPI_INT, MPI_SUM, 0,
               MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
