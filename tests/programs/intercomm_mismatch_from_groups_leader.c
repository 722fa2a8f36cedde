/* EXPECT: intercomm-mismatch  NP: 4  FLAVOR: mpich */
/*
 * Checks: MPI_Intercomm_create_from_groups (MPI-4.0) between the groups
 * {0, 1} and {2, 3}, where world rank 3 passes local_leader 1 (itself) and
 * world rank 2 local_leader 0 (itself).
 *
 * Why it is an error: the processes of a group must name the same local
 * leader (MPI-4.0 sec. 7.6.2). Each member waits for the leader it names;
 * the checker's members wait in its wait loop, where the deadlock detector
 * finds that the waits can never end. (MPICH only.)
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
    MPI_Intercomm_create_from_groups(inA ? a : b, inA ? 0 : wrank - 2, inA ? b : a, 0, "halo", MPI_INFO_NULL,
                                     MPI_ERRORS_ARE_FATAL, &inter);
    MPI_Comm_free(&inter);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&world);
#endif
    MPI_Finalize();
    return 0;
}
