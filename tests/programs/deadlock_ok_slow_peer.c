/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: a long wait that is not a deadlock. Rank 0 enters MPI_Recv from
 * rank 1 at once; rank 1 computes for 3 s (sleeps, no MPI call) before it
 * sends. The checker timeout is 1 s, so rank 0 waits three times longer.
 *
 * Why it is correct: the receive is matched as soon as rank 1 sends; MPI
 * promises nothing about how soon (MPI-3.1 sec. 3.5, progress). A timeout
 * only starts deadlock detection: rank 1 is not blocked in MPI, so nothing
 * is proven and nothing may be reported.
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, value = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, 1, 15, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (value != 1234)
            printf("rank 0: received %d\n", value);
    } else if (rank == 1) {
        sleep(3);               /* stands for 3 s of computation */
        value = 1234;
        MPI_Send(&value, 1, MPI_INT, 0, 15, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
