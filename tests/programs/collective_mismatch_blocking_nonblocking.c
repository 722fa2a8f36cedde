/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: rank 1 calls MPI_Ibcast + MPI_Wait where ranks 0 and 2 call
 * MPI_Bcast, same root, same data.
 *
 * Why it is an error: "a nonblocking collective operation cannot match a
 * blocking collective operation" (MPI-3.1 sec. 5.12). With some MPI
 * libraries it happens to work; the checker reports it everywhere.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Ibcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Bcast(buf, 4, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
