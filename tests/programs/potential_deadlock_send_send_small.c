/* EXPECT: potential-deadlock  NP: 2  MODE: strict */
/*
 * Checks: the "unsafe" exchange. Ranks 0 and 1 both MPI_Send one int to each
 * other, then MPI_Recv.
 *
 * Why a warning: a standard-mode send may complete before a matching receive
 * is posted only if the library buffers the message; it may just as well
 * wait for the receive (MPI-3.1 sec. 3.4 and 3.5, "Buffering": such a
 * program is unsafe). Every MPI library buffers a 4-byte message, so the
 * program completes, but with MPI_Ssend semantics (strict mode) both sends
 * would wait for each other forever: potential-deadlock. In fast mode sends
 * never wait, and the same code is clean (potential_deadlock_ok_send_send_
 * small_fast.c includes this file). Run plainly, it completes at once.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, peer, out, in = -1;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;
    out = 10 + rank;

    if (rank < 2) {
        /* completes only because MPI buffers the small message */
        MPI_Send(&out, 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (in != 10 + peer)
            printf("rank %d: received %d, expected %d\n", rank, in, 10 + peer);
    }

    MPI_Finalize();
    return 0;
}
