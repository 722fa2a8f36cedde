/* EXPECT: type-mismatch  NP: 2 */
/*
 * Checks: truncation. Rank 0 sends 10 ints, rank 1 receives with count 5.
 *
 * Why it is an error: a receive buffer must be large enough for the incoming
 * message; a longer message is an overflow, erroneous, and MPI returns
 * MPI_ERR_TRUNCATE (MPI-3.1 sec. 3.2.4). The checker's class for it is
 * type-mismatch. MPI_ERRORS_RETURN is set on MPI_COMM_WORLD so the library
 * does not abort the job before the checker reports; the return code is not
 * checked. Run plainly, the program completes (the receive returns an error).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, out[10], in[10];

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 10; i++)
        out[i] = i;

    if (rank == 0) {
        MPI_Send(out, 10, MPI_INT, 1, 10, MPI_COMM_WORLD);
    } else if (rank == 1) {
        /* BUG: the message has 10 ints, the receive room for 5 */
        MPI_Recv(in, 5, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    MPI_Finalize();
    return 0;
}
