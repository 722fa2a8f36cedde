/* EXPECT: OK  NP: 2 */
/*
 * Checks: MPI_Sendrecv with one buffer for both sides is no overlap where
 * the side that would share it has MPI_PROC_NULL for its peer: both peers
 * MPI_PROC_NULL (a rank alone in its dimension of a decomposition), and
 * one (rank 0 sends to 1 and receives from no one, rank 1 the reverse).
 *
 * Why it is correct: a send to MPI_PROC_NULL reads nothing and a receive
 * from it leaves the buffer unmodified (MPI-4.0 sec. 3.11), so only one
 * side touches the memory. buffer_overlap_sendrecv.c is the error.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank + 10;
    MPI_Sendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Sendrecv(&x, 1, MPI_INT, 1, 1, &x, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Sendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 1, &x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (x != 10) {
        fprintf(stderr, "rank %d: x is %d, not 10\n", rank, x);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
    return 0;
}
