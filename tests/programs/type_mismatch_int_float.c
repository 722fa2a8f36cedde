/* EXPECT: type-mismatch  NP: 2 */
/*
 * Checks: a message sent as MPI_INT and received as MPI_FLOAT. Both types
 * have 4 bytes here, so the byte counts agree and MPI itself notices nothing.
 *
 * Why it is an error: the type signature of the send (4 x int) must match
 * that of the receive (4 x float); only the basic types are compared, never
 * their sizes (MPI-3.1 sec. 3.3.1, type matching rules). The received bits
 * are meaningless as floats. Run plainly, the program completes silently.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, out[4] = {1, 2, 3, 4};
    float in[4];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        MPI_Send(out, 4, MPI_INT, 1, 8, MPI_COMM_WORLD);
    } else if (rank == 1) {
        /* BUG: int data received as float */
        MPI_Recv(in, 4, MPI_FLOAT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    MPI_Finalize();
    return 0;
}
