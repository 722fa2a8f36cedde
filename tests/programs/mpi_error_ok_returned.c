/* EXPECT: OK  NP: 2 */
/*
 * Checks: no mpi-error finding where the program handles MPI's errors
 * itself, and the error handlers read back as the program set them (the
 * checker puts its own handler in place of MPI_ERRORS_ARE_FATAL):
 *  - MPI_Comm_get_errhandler of MPI_COMM_WORLD and of a duplicate returns
 *    MPI_ERRORS_ARE_FATAL, the default;
 *  - with MPI_ERRORS_RETURN set, MPI_Group_incl with a bad rank returns an
 *    error code that the program checks and goes on (MPI-4.0 sec. 9.3);
 *  - MPI_ERRORS_ARE_FATAL set again reads back as MPI_ERRORS_ARE_FATAL;
 *  - files: MPI_FILE_NULL's handler reads back as MPI_ERRORS_RETURN (the
 *    files' default), then as MPI_ERRORS_ARE_FATAL once set; a failed
 *    MPI_File_open under MPI_ERRORS_RETURN returns its error code.
 * The program exits non-zero if any of this is not so.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, bad = 0, r5[1] = {5};
    MPI_Errhandler eh;
    MPI_Comm dup;
    MPI_Group world, g;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    bad |= eh != MPI_ERRORS_ARE_FATAL;
    MPI_Errhandler_free(&eh);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_errhandler(dup, &eh);
    bad |= eh != MPI_ERRORS_ARE_FATAL;
    MPI_Errhandler_free(&eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int rc = MPI_Group_incl(world, 1, r5, &g);
    bad |= rc == MPI_SUCCESS;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    bad |= eh != MPI_ERRORS_ARE_FATAL;
    MPI_Errhandler_free(&eh);
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    bad |= eh != MPI_ERRORS_RETURN;
    MPI_File fh;
    rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent-mpicheck-dir/f", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    bad |= rc == MPI_SUCCESS;
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    bad |= eh != MPI_ERRORS_ARE_FATAL;
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    MPI_Group_free(&world);
    MPI_Comm_free(&dup);
    if (bad)
        fprintf(stderr, "rank %d: an error handler did not read back as set\n", rank);
    MPI_Finalize();
    return bad;
}
