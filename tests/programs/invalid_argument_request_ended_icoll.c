/* EXPECT: invalid-argument  NP: 2  RANKS: 0 */
/*
 * Checks: both ranks first run 40 MPI_Ibarrier at once and complete them
 * with MPI_Waitall; then rank 0 keeps a copy of an MPI_Isend request's
 * handle, completes the request with MPI_Wait and tests the copy with
 * MPI_Test.
 *
 * Why it is an error: the copy names a request MPI has freed (MPI-4.0 sec.
 * 3.7.3), as in invalid_argument_request_ended.c. The nonblocking
 * collectives before it must not stop the checker from judging: it once
 * took each of their handles for one shared by two requests (the handle
 * the checker's own record of the collective took over), and after 32 such
 * handles judged no handle at all.
 */
#include <mpi.h>

#define NCOLL 40

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0, flag = 0;
    MPI_Request r, copy, colls[NCOLL];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < NCOLL; i++)
        MPI_Ibarrier(MPI_COMM_WORLD, &colls[i]);
    MPI_Waitall(NCOLL, colls, MPI_STATUSES_IGNORE);
    if (rank == 0) {
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        copy = r;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Test(&copy, &flag, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
