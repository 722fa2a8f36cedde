/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_COMM_NULL passed to MPI_Barrier.
 *
 * Why it is an error: MPI_COMM_NULL is the invalid communicator handle
 * (MPI-4.0 sec. 2.5.1); no operation may communicate on it
 * (MPI_ERR_COMM). It typically comes from MPI_Comm_split with MPI_UNDEFINED,
 * which is reproduced here: rank 1 gets MPI_COMM_NULL and calls the barrier on
 * it without checking.
 *
 * An error on MPI_COMM_NULL has no communicator to take the handler from:
 * MPI-3.1 raises it on MPI_COMM_WORLD, MPI-4.0 on MPI_COMM_SELF, so both get
 * MPI_ERRORS_RETURN here. Every rank returns from its call at once: rank 0's
 * barrier is on a communicator of one process.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, rc;
    MPI_Comm sub;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* Only rank 0 is in the new communicator; the others get MPI_COMM_NULL. */
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &sub);

    rc = MPI_Barrier(sub);                  /* BUG on ranks >= 1: sub is MPI_COMM_NULL */
    if (rc != MPI_SUCCESS)
        printf("rank %d: MPI_Barrier(MPI_COMM_NULL) returned %d\n", rank, rc);

    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
