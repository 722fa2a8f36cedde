/* EXPECT: deadlock  NP: 3  TIMEOUT: 1  RANKS: 0,1,2 */
/*
 * Checks: an AND-wait in a cycle. Rank 0 waits in MPI_Waitall for two
 * receives, from ranks 1 and 2; rank 2 sends its message and reaches
 * MPI_Finalize; rank 1 waits in MPI_Recv for a message rank 0 sends only
 * after its MPI_Waitall.
 *
 * Why it is an error: MPI_Waitall returns only when every request is
 * complete (MPI-3.1 sec. 3.7.5), so rank 2's message does not release
 * rank 0 (it would release an MPI_Waitany: deadlock_ok_waitany_some.c);
 * ranks 0 and 1 wait for each other forever, and rank 2 waits in
 * MPI_Finalize for both. A checker that treats Waitall as an OR-wait
 * misses it.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a = 0, b = 0, x = 7;
    MPI_Request req[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, st);
        MPI_Send(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
