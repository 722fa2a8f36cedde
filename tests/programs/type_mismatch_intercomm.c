/* EXPECT: type-mismatch  NP: 4  RANKS: 1,2 */
/*
 * Checks: an intercommunicator between {0, 1} and {2, 3}; world rank 1
 * sends 2 MPI_INT to rank 0 of the remote group (world 2), which receives
 * 2 MPI_FLOAT from rank 1 of its remote group.
 *
 * Why it is an error: the type signatures of a send and its receive must
 * match (MPI-3.1 sec. 3.3.1), across an intercommunicator too; the report
 * names both processes by their world ranks.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int wrank, iv[2] = {1, 2};
    float fv[2];
    MPI_Comm local, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 4, &inter);
    if (wrank == 1)
        MPI_Send(iv, 2, MPI_INT, 0, 5, inter);
    else if (wrank == 2)
        MPI_Recv(fv, 2, MPI_FLOAT, 1, 5, inter, MPI_STATUS_IGNORE);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
