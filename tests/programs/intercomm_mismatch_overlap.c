/* EXPECT: intercomm-mismatch  NP: 3  RANKS: 0 */
/*
 * Checks: MPI_Intercomm_create with MPI_COMM_WORLD as local_comm on every
 * process (leader 0) and remote_leader 2, a member of the same group.
 *
 * Why it is an error: the two groups of an intercommunicator must be
 * disjoint, and the remote leader must be in the other group (MPI-3.1 sec.
 * 6.6.2). World 0 would wait for a message from world 2, which waits for
 * world 0's broadcast.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Comm inter;
    MPI_Init(&argc, &argv);
    MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_WORLD, 2, 5, &inter);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
