/* EXPECT: deadlock  NP: 4 */
/*
 * Checks: a deadlock inside a sub-communicator. MPI_COMM_WORLD is split by
 * rank % 2. In the even half (world ranks 0 and 2, ranks 0 and 1 of their
 * communicator) both ranks MPI_Recv from each other before sending. The odd
 * half (world ranks 1 and 3) does an MPI_Barrier on its own communicator,
 * frees it and calls MPI_Finalize.
 *
 * Why it is an error: as in deadlock_recv_recv.c, MPI_Recv returns only once
 * a matching message is received (MPI-3.1 sec. 3.2.4), and each send comes
 * after the sender's own receive; messages on the odd half's communicator
 * (or any other) can never match (sec. 3.2.3, the communicator is part of
 * the envelope). The report must name the even half's ranks, in the split
 * communicator's numbering and in MPI_COMM_WORLD's. Run plainly, it hangs.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int wrank, rank, color, out, in = 0;
    MPI_Comm half;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    color = wrank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &half);
    MPI_Comm_rank(half, &rank);
    out = wrank;

    if (color == 0 && rank < 2) {
        /* BUG: both ranks of the even half receive first */
        MPI_Recv(&in, 1, MPI_INT, 1 - rank, 13, half, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, 1 - rank, 13, half);
    } else {
        MPI_Barrier(half);
    }

    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
