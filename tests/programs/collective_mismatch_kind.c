/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: ranks 0 and 1 call MPI_Bcast on MPI_COMM_WORLD while rank 2 calls
 * MPI_Reduce there, with the same buffer sizes.
 *
 * Why it is an error: collective calls on a communicator must be the same
 * operation, in the same order, on every member (MPI-3.1 sec. 5.1, 5.13);
 * a broadcast never matches a reduction. What MPI does is undefined (it may
 * hang, or finish with wrong data); the checker reports before either call
 * runs and ends the job.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {1, 2, 3, 4}, out[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        MPI_Reduce(buf, out, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    else
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
