/* EXPECT: intercomm-mismatch  NP: 4 */
/*
 * Checks: MPI_Intercomm_create between {0, 1} and {2, 3}, local leaders
 * world 0 and world 2; the first leader names world rank 3 as its remote
 * leader, the second names world rank 0.
 *
 * Why it is an error: the two leaders must name each other as
 * remote_leader in peer_comm (MPI-3.1 sec. 6.6.2). World 0 waits for a
 * message from world 3, which waits for its own leader, which waits for
 * world 0. The checker's leaders wait for each other in its wait loop,
 * where the deadlock detector finds the cycle instead of a hang.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int wrank;
    MPI_Comm local, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 3 : 0, 5, &inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
