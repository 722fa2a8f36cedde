/* EXPECT: intercomm-mismatch  NP: 4  RANKS: 0,1  FLAVOR: mpich */
/*
 * Checks: MPI_Intercomm_create_from_groups (MPI-4.0) between the groups
 * {0, 1} and {2, 3} of MPI_COMM_WORLD, where world rank 1 names rank 1 of
 * the remote group as remote_leader while its leader, world rank 0, names
 * rank 0.
 *
 * Why it is an error: every process of a group must pass the same
 * arguments (MPI-4.0 sec. 7.6.2). Each member tells the leader it names
 * what it passes before the call; the leader reports the difference with
 * both calls. (MPICH only: Open MPI 4.1 has no
 * MPI_Intercomm_create_from_groups.)
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
    MPI_Intercomm_create_from_groups(inA ? a : b, 0, inA ? b : a, wrank == 1 ? 1 : 0, "halo", MPI_INFO_NULL,
                                     MPI_ERRORS_ARE_FATAL, &inter);
    MPI_Comm_free(&inter);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&world);
#endif
    MPI_Finalize();
    return 0;
}
