/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: an MPI_Allreduce where rank 0 passes MPI_IN_PLACE as sendbuf and
 * the others a separate send buffer.
 *
 * Why it is an error: for MPI_Allreduce the in-place option "is specified by
 * passing the value MPI_IN_PLACE to the argument sendbuf at all processes"
 * (MPI-3.1 sec. 5.9.6); some members only is erroneous.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, in = 1, out = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(rank == 0 ? MPI_IN_PLACE : &in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
