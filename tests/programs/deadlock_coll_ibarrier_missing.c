/* EXPECT: deadlock  NP: 3  TIMEOUT: 1 */
/*
 * Checks: ranks 0 and 1 start an MPI_Ibarrier and wait for it with
 * MPI_Wait; rank 2 never joins it and waits in MPI_Recv for a message rank
 * 0 sends only after the barrier.
 *
 * Why it is an error: a nonblocking barrier completes only after every
 * member has started it (MPI-3.1 sec. 5.12.1); rank 2 starts it only after
 * its receive, which needs rank 0 past the barrier. Rank 0 waits for rank
 * 2, rank 2 for rank 0: run plainly, the program hangs. The waits on the
 * barrier's request are seen by the deadlock detector like any other wait.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
