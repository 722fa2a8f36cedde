/* EXPECT: deadlock  NP: 3 */
/*
 * Checks: MPI_Waitany with no possible sender. Rank 0 posts MPI_Irecv from
 * rank 1 and from rank 2 and calls MPI_Waitany; it would send to ranks 1 and
 * 2 only after that. Ranks 1 and 2 first MPI_Recv from rank 0, and would
 * answer rank 0 only after that.
 *
 * Why it is an error: MPI_Waitany returns once at least one of the requests
 * completes (MPI-3.1 sec. 3.7.5), a receive request only when a matching
 * message arrives; MPI_Recv only when a matching message is received (sec.
 * 3.2.4). Rank 0 waits for 1 or 2, ranks 1 and 2 wait for 0: no rank can
 * ever be released. Run plainly, the program hangs.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, idx, val = 0, in[2] = {0, 0};
    MPI_Request req[2];
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        MPI_Irecv(&in[0], 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&in[1], 1, MPI_INT, 2, 6, MPI_COMM_WORLD, &req[1]);
        /* BUG: neither rank 1 nor rank 2 sends before hearing from rank 0 */
        MPI_Waitany(2, req, &idx, &st);
        val = 42;
        MPI_Send(&val, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
        MPI_Send(&val, 1, MPI_INT, 2, 7, MPI_COMM_WORLD);
        MPI_Wait(&req[1 - idx], &st);
    } else if (rank == 1 || rank == 2) {
        MPI_Recv(&val, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&val, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
