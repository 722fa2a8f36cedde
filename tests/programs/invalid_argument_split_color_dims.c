/* EXPECT: invalid-argument  NP: 2  TIMEOUT: 2  RANKS: 0,1  SAYS: is+-10:+a+color+must+be+non-negative+or+MPI_UNDEFINED|has+dims[0]+=+-2 */
/*
 * Checks: MPI_Comm_split with color -10, then MPI_Cart_create with
 * dims {-2, -1} (whose product, 2, is the group's size), with errors
 * returned.
 *
 * Why it is an error: a color must be non-negative or MPI_UNDEFINED
 * (MPI-4.0 sec. 7.4.2), and a Cartesian grid's dimensions count
 * processes (sec. 8.5.1): none can be negative. Open MPI refuses both;
 * MPICH 4.0.2 accepts both and goes on (the MPI Bugs Initiative's
 * InvalidParam_OtherArg_Comm_split_nok.c and
 * InvalidParam_Dim_Cart_create_nok.c, which the checker missed with it).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int dims[2] = {-2, -1}, periods[2] = {0, 0};
    MPI_Comm split = MPI_COMM_NULL, cart = MPI_COMM_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Comm_split(MPI_COMM_WORLD, -10, 0, &split) == MPI_SUCCESS && split != MPI_COMM_NULL)
        MPI_Comm_free(&split);
    if (MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart) == MPI_SUCCESS
        && cart != MPI_COMM_NULL)
        MPI_Comm_free(&cart);
    MPI_Finalize();
    return 0;
}
