/* EXPECT: intercomm-nonuniform  NP: 4  RANKS: 0,2  FLAVOR: mpich  INJECT: outcome-fail@1  SKIPPED: unchecked-communicator */
/*
 * Checks: the outcome agreement after MPI_Intercomm_create_from_groups
 * (MPI-4.0), end to end: a correct creation between the groups {0, 1} and
 * {2, 3} of MPI_COMM_WORLD (leaders world 0 and world 2), run with
 * MPICHECK_INTERNAL_TEST_OUTCOME_FAIL=1, which makes the checker count
 * world rank 1's outcome as an error (what MPI returned is unchanged).
 * The members send their outcome to their leader, the leaders exchange
 * their groups' and send the verdict back: world rank 0, the lower leader,
 * must report the split, and no process may make a collective shadow over
 * the new intercommunicator.
 * (MPICH only: Open MPI 4.1 has no MPI_Intercomm_create_from_groups.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int wrank;
    MPI_Group world, a, b;
    MPI_Comm inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
#if MPI_VERSION >= 4
    int ra[2] = {0, 1}, rb[2] = {2, 3}, inA = wrank < 2;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 2, ra, &a);
    MPI_Group_incl(world, 2, rb, &b);
    MPI_Intercomm_create_from_groups(inA ? a : b, 0, inA ? b : a, 0, "pair", MPI_INFO_NULL,
                                     MPI_ERRORS_ARE_FATAL, &inter);
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&world);
#endif
    MPI_Finalize();
    return 0;
}
