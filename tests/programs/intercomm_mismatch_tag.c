/* EXPECT: intercomm-mismatch  NP: 4  RANKS: 0,2 */
/*
 * Checks: MPI_Intercomm_create between {0, 1} and {2, 3} (leaders world 0
 * and world 2) where the first group passes tag 7 and the second tag 8.
 *
 * Why it is an error: the tag is the one the leaders' messages on peer_comm
 * are matched by (MPI-3.1 sec. 6.6.2); both leaders would wait forever for
 * a message with their own tag. The checker's leaders compare the tags
 * before the real call, report both calls, and end the job.
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
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, inA ? 7 : 8, &inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
