/* EXPECT: type-mismatch  NP: 2 */
/*
 * Checks: a type mismatch through persistent requests. Rank 0 starts an
 * MPI_Send_init of 2 MPI_INT; rank 1 starts an MPI_Recv_init of 1 MPI_DOUBLE
 * that matches it (both 8 bytes, so MPI sees no truncation).
 *
 * Why it is an error: a persistent request communicates like the matching
 * nonblocking call (MPI-3.1 sec. 3.9), under the same type matching rules
 * (sec. 3.3.1): signature {int, int} against {double}. Run plainly, the
 * program completes silently.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, out[2] = {1, 2};
    double in = 0.0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        MPI_Send_init(out, 2, MPI_INT, 1, 12, MPI_COMM_WORLD, &req);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
    } else if (rank == 1) {
        /* BUG: two ints received as one double */
        MPI_Recv_init(&in, 1, MPI_DOUBLE, 0, 12, MPI_COMM_WORLD, &req);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
    }

    MPI_Finalize();
    return 0;
}
