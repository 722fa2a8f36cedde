/* EXPECT: lost-message  NP: 2 */
/*
 * Checks: a message that is sent and never received. Rank 0 MPI_Sends one int
 * with tag 7 to rank 1; rank 1 never posts a receive for it. Both ranks then
 * call MPI_Finalize.
 *
 * Why a warning: the send completes locally only because MPI buffers the
 * small message (MPI-3.1 sec. 3.4). Before MPI_Finalize a process must
 * "execute matching calls needed to complete MPI communications initiated by
 * other processes" (sec. 8.7); rank 1 does not, and the message is still
 * unmatched at MPI_Finalize. Libraries drop it silently, so the program runs
 * to completion; most likely a receive is missing. (In strict mode the
 * checker may in addition report the send as potential-deadlock, a warning.)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, value = 77;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        /* BUG: rank 1 has no receive for this message */
        MPI_Send(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
