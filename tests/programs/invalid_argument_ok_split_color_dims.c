/* EXPECT: OK  NP: 3 */
/*
 * Checks: the colors and grid dimensions MPI allows: MPI_Comm_split with
 * colors 0 and MPI_UNDEFINED (rank 2 joins no communicator), MPI_Dims_create
 * with dims {0, 0} (it chooses both) and {3, 0}, MPI_Cart_create and
 * MPI_Cart_map with the dims it chose, and a zero-dimensional
 * MPI_Cart_create (ndims 0, dims NULL).
 *
 * Why it is correct: a color is non-negative or MPI_UNDEFINED (MPI-4.0
 * sec. 7.4.2); MPI_Dims_create fills the entries that are 0 (sec. 8.5.2);
 * none of the dimensions is negative. No finding expected.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, dims[2] = {0, 0}, periods[2] = {1, 0}, newrank;
    MPI_Comm split, cart;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank == 2 ? MPI_UNDEFINED : 0, rank, &split);
    if ((rank == 2) != (split == MPI_COMM_NULL))
        printf("TEST FAILED: rank %d's split communicator\n", rank);
    if (split != MPI_COMM_NULL)
        MPI_Comm_free(&split);
    MPI_Dims_create(3, 2, dims);
    if (dims[0] * dims[1] != 3)
        printf("TEST FAILED: dims %d x %d\n", dims[0], dims[1]);
    int fixed[2] = {3, 0};
    MPI_Dims_create(3, 2, fixed);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank);
    MPI_Comm_free(&cart);
    MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &cart);
    if (cart != MPI_COMM_NULL)
        MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
