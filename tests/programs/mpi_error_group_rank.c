/* EXPECT: mpi-error  NP: 2  RANKS: 0 */
/*
 * Checks: an error the MPI library itself raises, under the default error
 * handler MPI_ERRORS_ARE_FATAL: rank 0 asks MPI_Group_incl for rank 5 of
 * a group of 2. MPI ends the job at once; the checker reports the call,
 * its arguments, its stack and MPI's error string first (mpi-error), and
 * the job still ends.
 *
 * Why it is an error: the ranks given to MPI_Group_incl must be valid
 * ranks of the group (MPI-4.0 sec. 7.3.2), and MPI_ERRORS_ARE_FATAL ends
 * the job on any error (sec. 9.3).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, bad[1] = {5};
    MPI_Group world, g;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rank == 0)
        MPI_Group_incl(world, 1, bad, &g);   /* the bug: no rank 5 */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
