/* EXPECT: deadlock  NP: 4  RANKS: 0,1,2,3 */
/*
 * Checks: an intercommunicator between {0, 1} and {2, 3}; world rank 0
 * receives from rank 1 of the remote group (world 3), and world rank 3
 * receives from rank 0 of the remote group (world 0), before either sends.
 * The others go on to MPI_Finalize.
 *
 * Why it is an error: each receive waits for a send that comes only after
 * the other receive completes (MPI-3.1 sec. 3.4). Ranks in an
 * intercommunicator's calls name processes of the remote group: the
 * report says world rank 0 waits for world rank 3 and 3 for 0 (ranks 1
 * and 2 wait in MPI_Finalize for them, and are in the report too).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int wrank, v = 0;
    MPI_Comm local, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 4, &inter);
    if (wrank == 0) {
        MPI_Recv(&v, 1, MPI_INT, 1, 0, inter, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 1, 0, inter);
    } else if (wrank == 3) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 0, 0, inter);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
