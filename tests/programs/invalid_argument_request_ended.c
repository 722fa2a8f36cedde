/* EXPECT: invalid-argument  NP: 2  RANKS: 0 */
/*
 * Checks: rank 0 keeps a copy of an MPI_Isend request's handle, completes
 * the request with MPI_Wait (which sets the program's handle to
 * MPI_REQUEST_NULL), then tests the copy with MPI_Test.
 *
 * Why it is an error: a request handle names the request only until the
 * request completes or is freed (MPI-4.0 sec. 3.7.3: MPI_Wait deallocates
 * a nonpersistent request); the copy names a request MPI has freed, or by
 * now another operation's request. MPICH 4.0 fails an internal assertion
 * in MPI_Test on it; the checker reports it first, naming the MPI_Wait
 * that ended the request.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 1, y = 0, flag = 0;
    MPI_Request r, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
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
