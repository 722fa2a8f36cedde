/* EXPECT: intercomm-mismatch  NP: 4 */
/*
 * Checks: MPI_Intercomm_create between {0, 1} and {2, 3}; in the second
 * group world rank 2 passes local_leader 0 and world rank 3 passes 1.
 *
 * Why it is an error: every process of a group must pass the same
 * local_leader (MPI-3.1 sec. 6.6.2). The members wait for a broadcast from
 * the leader they name, and one of them waits forever. The local
 * communicator's handshake compares local_leader before the real call.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int wrank, lrank;
    MPI_Comm local, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Comm_rank(local, &lrank);
    int leader = inA ? 0 : lrank;       /* group B: each names itself */
    MPI_Intercomm_create(local, leader, MPI_COMM_WORLD, inA ? 2 : 0, 5, &inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
