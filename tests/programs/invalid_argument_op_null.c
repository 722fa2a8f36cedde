/* EXPECT: invalid-argument  NP: 2 */
/*
 * Checks: MPI_OP_NULL as the operation of MPI_Allreduce.
 *
 * Why it is an error: MPI_OP_NULL is the invalid operation handle (MPI-4.0
 * sec. 6.9.5, MPI_Op_free sets a freed op to it); a reduction needs a valid
 * op (MPI_ERR_OP). Here a user-defined op is freed and the stale handle is
 * reused, the way it happens in real code.
 *
 * Every rank makes the same call; the library rejects the op locally (errors
 * are returned), so nothing is communicated and the program goes on.
 */
#include <mpi.h>
#include <stdio.h>

static void my_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int i;
    (void)type;
    for (i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int rank, rc, in, out = 0;
    MPI_Op op;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Op_create(my_sum, 1, &op);
    MPI_Op_free(&op);                       /* op is now MPI_OP_NULL */

    in = rank + 1;
    rc = MPI_Allreduce(&in, &out, 1, MPI_INT, op, MPI_COMM_WORLD); /* BUG: MPI_OP_NULL */
    if (rc != MPI_SUCCESS)
        printf("rank %d: MPI_Allreduce with MPI_OP_NULL returned %d\n", rank, rc);

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
