/* EXPECT: invalid-argument  NP: 2  FLAVOR: mpich */
/*
 * Checks: a send tag one above the MPI_TAG_UB attribute of MPI_COMM_WORLD.
 *
 * Why it is an error: valid tags are 0..MPI_TAG_UB (MPI-4.0 sec. 3.2.3 and
 * sec. 9.1.2); the attribute is queried at run time, as a portable program must.
 *
 * MPICH only: Open MPI 4.1 sets MPI_TAG_UB to INT_MAX, so no int tag can exceed
 * it there; MPICH 4.0 sets 2^28-1. Should the upper bound be INT_MAX anyway, the
 * program says so and makes no bad call (the test then fails, visibly).
 *
 * Rank 0 sends with tag MPI_TAG_UB + 1; the library rejects it (MPI_ERR_TAG,
 * errors are returned), nothing is sent, no receive is posted.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc, flag, value = 7;
    int *tag_ub_ptr;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub_ptr, &flag);

    if (rank == 0) {
        if (!flag || *tag_ub_ptr == INT_MAX) {
            printf("rank 0: MPI_TAG_UB is INT_MAX; no tag can exceed it\n");
        } else {
            int bad_tag = *tag_ub_ptr + 1;
            rc = MPI_Send(&value, 1, MPI_INT, 1, bad_tag, MPI_COMM_WORLD); /* BUG */
            printf("rank 0: MPI_Send with tag %d (MPI_TAG_UB %d) returned %d\n",
                   bad_tag, *tag_ub_ptr, rc);
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
