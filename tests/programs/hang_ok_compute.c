/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: rank 0 computes (sleeps) outside MPI for longer than
 * --hang-timeout (6 x --timeout: 6 s) while rank 1 waits in MPI_Recv for
 * the message rank 0 sends afterwards.
 *
 * Why it is correct: a rank outside MPI can still make the call that
 * releases the others; a long computation is never a hang, and no
 * deadlock can be proven either. No finding expected.
 */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, x = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        sleep(8);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
