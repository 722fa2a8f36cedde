/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_Comm_rank on MPI_COMM_NULL and MPI_Type_size on
 * MPI_DATATYPE_NULL: queries that only read a handle, which the checker
 * passes through a light path (programs call them millions of times).
 *
 * Why it is an error: MPI_COMM_NULL and MPI_DATATYPE_NULL are the invalid
 * handles (MPI-4.0 sec. 2.5.1); a query needs a real communicator or
 * datatype (MPI_ERR_COMM, MPI_ERR_TYPE). Typically a communicator that
 * MPI_Comm_split gave this rank as MPI_COMM_NULL (MPI_UNDEFINED color), used
 * as if it were real. The light path must still report it.
 *
 * Errors are returned (MPI_ERRORS_RETURN), so the program goes on.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, r = -1, size = -1;
    MPI_Comm sub;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* rank 1 is left out: its sub is MPI_COMM_NULL */
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &sub);
    if (rank == 1) {
        int rc = MPI_Comm_rank(sub, &r);
        int rc2 = MPI_Type_size(MPI_DATATYPE_NULL, &size);
        printf("rank 1: MPI_Comm_rank returned %d, MPI_Type_size returned %d\n", rc, rc2);
    }
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Finalize();
    return 0;
}
