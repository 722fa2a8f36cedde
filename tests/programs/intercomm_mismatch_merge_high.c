/* EXPECT: intercomm-mismatch  NP: 4  FLAVOR: mpich */
/*
 * Checks: MPI_Intercomm_merge of an intercommunicator between {0, 1} and
 * {2, 3}, where world rank 0 passes high = 1 and world rank 1 high = 0.
 *
 * Why it is an error: all processes of one group must pass the same high
 * value (MPI-3.1 sec. 6.6.2); the order of the merged communicator is then
 * undefined. MPICH 4.0 happens to give every process the same order; Open
 * MPI 4.1 does not, which intercomm_nonuniform_merge_order.c checks.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int wrank;
    MPI_Comm local, inter, merged;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 5, &inter);
    int high = inA ? wrank == 0 : 0;
    MPI_Intercomm_merge(inter, high, &merged);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
