/* EXPECT: deadlock  NP: 2  CAUSE: tag */
/*
 * Checks: the likely cause of a deadlock is named for a receive waited for
 * through its request too. Rank 0 sends with tag 1 and waits for an
 * answer; rank 1 posts MPI_Irecv for tag 2 and waits in MPI_Wait, whose
 * call does not name what it receives: the checker looks at the receives
 * the rank posted whose envelope has not come.
 *
 * Why it is an error: the receive matches only a message with tag 2
 * (MPI-4.0 sec. 3.5); both ranks wait forever.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v = 0, w = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Irecv(&w, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &req);   /* the bug: tag 2 */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(&w, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
