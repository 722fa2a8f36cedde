/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_DATATYPE_NULL as the datatype of MPI_Send.
 *
 * Why it is an error: MPI_DATATYPE_NULL is the invalid datatype handle
 * (MPI-4.0 sec. 2.5.1); a send of count > 0 must name a valid, committed
 * datatype (MPI_ERR_TYPE). It typically comes from a type handle that was
 * freed (MPI_Type_free sets it to MPI_DATATYPE_NULL) and then reused, which is
 * what happens here.
 *
 * Rank 0 sends; the library rejects it (errors are returned), nothing is sent,
 * no receive is posted.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc, buf[2] = {1, 2};
    MPI_Datatype pair;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_free(&pair);                   /* pair is now MPI_DATATYPE_NULL */

    if (rank == 0) {
        rc = MPI_Send(buf, 1, pair, 1, 0, MPI_COMM_WORLD); /* BUG: MPI_DATATYPE_NULL */
        printf("rank 0: MPI_Send with MPI_DATATYPE_NULL returned %d\n", rc);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
