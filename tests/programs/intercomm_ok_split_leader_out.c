/* EXPECT: OK  NP: 4  FLAVOR: mpich  SKIPPED: unchecked-communicator */
/*
 * Checks: MPI_Comm_split of an intercommunicator between {0, 1} and
 * {2, 3} in which rank 0 of each group passes MPI_UNDEFINED; the result is
 * freed without a collective on it. Correct; no finding expected.
 *
 * MPICH before 4.2 exchanges a wrong context id when rank 0 of a group is
 * left out of such a split (pmodels/mpich#6878): every collective on the
 * result hangs, the checker's own private copy of it too. The checker
 * agrees after the call that a group's rank 0 was left out and makes no
 * copy: the run completes, and the summary counts the communicator as
 * unchecked.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int wrank, lrank;
    MPI_Comm local, inter, split;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Comm_rank(local, &lrank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 9, &inter);
    MPI_Comm_split(inter, lrank == 0 ? MPI_UNDEFINED : 0, wrank, &split);
    if ((lrank == 0) != (split == MPI_COMM_NULL))
        fprintf(stderr, "TEST FAILED: rank %d: split %s\n", wrank, lrank == 0 ? "not null" : "null");
    if (split != MPI_COMM_NULL)
        MPI_Comm_free(&split);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
