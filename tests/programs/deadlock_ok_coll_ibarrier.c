/* EXPECT: OK  NP: 3  TIMEOUT: 1 */
/*
 * Checks: rank 1 starts an MPI_Ibarrier and then waits in MPI_Recv for rank
 * 2; rank 0 starts the MPI_Ibarrier and waits for it with MPI_Wait; rank 2
 * computes for 2 s, joins the barrier, sends to rank 1 and waits for the
 * barrier. Rank 1 then waits for the barrier too.
 *
 * Why it is correct: the barrier completes once all three started it
 * (MPI-3.1 sec. 5.12.1), which rank 2 does after computing; nothing waits
 * in a cycle. A detector that did not know rank 1 already started the
 * barrier would see rank 0 waiting for rank 1 and rank 1 for rank 2 and,
 * while rank 2 computes, must still blame nobody.
 */
#include <mpi.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank, x = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        struct timespec ts = {2, 0};
        nanosleep(&ts, NULL);
    }
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (rank == 1)
        MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 2)
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
