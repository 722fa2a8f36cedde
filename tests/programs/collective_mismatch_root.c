/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: an MPI_Bcast where rank 2 names root 1 and the others root 0.
 *
 * Why it is an error: "the argument root must have identical values on all
 * processes" (MPI-3.1 sec. 5.4). Run plainly the program may hang or
 * receive the wrong data; the checker reports and ends the job first.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(buf, 4, MPI_INT, rank == 2 ? 1 : 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
