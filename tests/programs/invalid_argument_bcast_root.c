/* EXPECT: invalid-argument  NP: 3 */
/*
 * Checks: MPI_Bcast with a root out of range (root == size).
 *
 * Why it is an error: on an intracommunicator the root of a rooted collective
 * must be a rank of the communicator, 0..size-1 (MPI-4.0 sec. 6.4,
 * MPI_ERR_ROOT). (MPI_ROOT and MPI_PROC_NULL are roots only on an
 * intercommunicator; see invalid_argument_ok_intercomm.c.)
 *
 * Every rank calls MPI_Bcast with root `size`, consistently, so this is not a
 * collective mismatch: every call is invalid by itself. Each library rejects
 * the root locally (errors are returned) and the program goes on.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, rc, value;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    value = rank;
    rc = MPI_Bcast(&value, 1, MPI_INT, size, MPI_COMM_WORLD);   /* BUG: root == size */
    if (rc != MPI_SUCCESS)
        printf("rank %d: MPI_Bcast with root %d returned %d\n", rank, size, rc);

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
