/* EXPECT: deadlock  NP: 4 */
/*
 * Checks: a cycle of synchronous sends. Every rank calls MPI_Ssend to
 * (rank+1)%4 and only then MPI_Recv from (rank+3)%4.
 *
 * Why it is an error: MPI_Ssend completes only after the matching receive
 * has started (MPI-3.1 sec. 3.4, synchronous mode), with no buffering
 * allowed to hide it. Every rank's receive is posted after its own Ssend,
 * so 0 -> 1 -> 2 -> 3 -> 0 is a cycle of waits that can never be released.
 * Run plainly, the program hangs in every MPI library.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, right, left, out, in = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    out = rank;

    /* BUG: everybody sends synchronously before anybody receives */
    MPI_Ssend(&out, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    MPI_Finalize();
    return 0;
}
