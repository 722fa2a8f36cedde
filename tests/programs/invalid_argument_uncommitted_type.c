/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: a derived datatype used for communication without MPI_Type_commit.
 *
 * Why it is an error: "A datatype object has to be committed before it can be
 * used in a communication" (MPI-4.0 sec. 5.1.9); an uncommitted type may only
 * be used to build other types (MPI_ERR_TYPE).
 *
 * Rank 0 builds MPI_Type_contiguous(3, MPI_INT), forgets the commit and sends
 * with it. The library rejects the call (errors are returned), nothing is
 * sent, no receive is posted. The type is freed (an uncommitted type may be
 * freed), so the only finding is the missing commit.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc, buf[3] = {1, 2, 3};
    MPI_Datatype triple;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Type_contiguous(3, MPI_INT, &triple);
    /* BUG: MPI_Type_commit(&triple) is missing */

    if (rank == 0) {
        rc = MPI_Send(buf, 1, triple, 1, 0, MPI_COMM_WORLD);
        printf("rank 0: MPI_Send with an uncommitted type returned %d\n", rc);
    }

    MPI_Type_free(&triple);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
