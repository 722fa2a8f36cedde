/* EXPECT: OK  NP: 2 */
/*
 * Checks: a library that caches a private communicator as an attribute of
 * MPI_COMM_WORLD and frees it in the attribute's delete callback, which both
 * Open MPI and MPICH run inside MPI_Finalize (after MPI_COMM_SELF's). The
 * checker must count leaks only after that callback ran: no finding.
 */
#include <mpi.h>
#include <stdlib.h>

static int free_private(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm; (void)keyval; (void)extra;
    MPI_Comm *priv = attr;
    MPI_Comm_free(priv);
    free(priv);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int keyval, rank, sum = 0;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_private, &keyval, NULL);
    MPI_Comm *priv = malloc(sizeof *priv);
    MPI_Comm_dup(MPI_COMM_WORLD, priv);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, priv);
    MPI_Comm_rank(*priv, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, *priv);
    MPI_Comm_free_keyval(&keyval);
    MPI_Finalize();     /* deletes the attribute: the callback frees the communicator */
    return 0;
}
