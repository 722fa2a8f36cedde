/* EXPECT: deadlock  NP: 2 */
/*
 * Checks: a receive from a rank that has already called MPI_Finalize. Rank 1
 * finalizes right away without sending; rank 0 calls MPI_Recv from rank 1.
 *
 * Why it is an error: after MPI_Finalize a process may make no more MPI
 * calls (MPI-3.1 sec. 8.7), so rank 1 can never send the message, and
 * MPI_Recv returns only once a matching message has been received (sec.
 * 3.2.4). Rank 0 waits forever (and MPI_Finalize, collective, keeps rank 1
 * waiting for rank 0 in practice). Run plainly, the program hangs.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, in = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        /* BUG: rank 1 never sends this message */
        MPI_Recv(&in, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: received %d\n", in);
    }

    MPI_Finalize();
    return 0;
}
