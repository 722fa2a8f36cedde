/* EXPECT: OK  NP: 4 */
/*
 * Checks: shifts around a ring, 10 iterations: MPI_Sendrecv to the right
 * neighbour (receiving from the left), then MPI_Sendrecv_replace to the left
 * (receiving from the right). Every rank sends before it receives, in a
 * cycle, yet nothing can deadlock.
 *
 * Why it is correct: MPI_Sendrecv and MPI_Sendrecv_replace execute the send
 * and the receive concurrently, as if by a nonblocking send and receive
 * followed by waits, so a ring of them cannot deadlock whatever the
 * buffering (MPI-3.1 sec. 3.10). Not even a potential deadlock in strict mode.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, right, left, it, out, in, val, bad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;

    for (it = 0; it < 10; it++) {
        out = 100 * it + rank;
        MPI_Sendrecv(&out, 1, MPI_INT, right, it, &in, 1, MPI_INT, left, it,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad += in != 100 * it + left;

        val = 1000 * it + rank;
        MPI_Sendrecv_replace(&val, 1, MPI_INT, left, 50 + it, right, 50 + it,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad += val != 1000 * it + right;
    }
    if (bad)
        printf("rank %d: %d wrong values\n", rank, bad);

    MPI_Finalize();
    return 0;
}
