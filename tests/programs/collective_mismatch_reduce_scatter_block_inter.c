/* EXPECT: collective-mismatch  NP: 4 */
/*
 * Checks: MPI_Reduce_scatter_block on an intercommunicator between {0} and
 * {1, 2, 3}, where rank 0 gives recvcount 4 (a vector of 1 x 4 ints) while
 * ranks 1-3 give 4 as well (vectors of 3 x 4 ints).
 *
 * Why it is an error: the vectors each group reduces must have one length
 * in both groups, local size x recvcount (MPI-3.1 sec. 5.10.1): 4 against
 * 12. Group {1, 2, 3} would scatter 12 ints over rank 0's 4-int receive
 * buffer.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sbuf[12] = {0}, rbuf[12];
    MPI_Comm half, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int color = rank == 0 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 7, &inter);
    MPI_Reduce_scatter_block(sbuf, rbuf, 4, MPI_INT, MPI_SUM, inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
