/* EXPECT: intercomm-nonuniform  NP: 4  RANKS: 0,2  INJECT: outcome-fail@3  SKIPPED: unchecked-communicator */
/*
 * Checks: the outcome agreement after MPI_Intercomm_create (seed 001),
 * end to end: a correct creation between {0, 1} and {2, 3} of
 * MPI_COMM_WORLD, run with MPICHECK_INTERNAL_TEST_OUTCOME_FAIL=3, which
 * makes the checker count world rank 3's outcome as an error (what MPI
 * returned to the program is unchanged). Neither MPI here survives a real
 * process failure inside the call (tests/intercomm_fault.sh), so this is
 * how the reduction in each group, the leaders' exchange and the verdict
 * are tested: the lower leader (world rank 0) must report that one group
 * got the intercommunicator everywhere and the other got it at all but
 * world rank 3, and no process may make a collective shadow over it (the
 * program's own use of it goes unchecked and is counted so).
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
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 17, &inter);
    /* The intercommunicator works (MPI made it everywhere). */
    int lr;
    MPI_Comm_rank(local, &lr);
    if (inA)
        MPI_Send(&wrank, 1, MPI_INT, lr, 3, inter);
    else
        MPI_Recv(&v, 1, MPI_INT, lr, 3, inter, MPI_STATUS_IGNORE);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
