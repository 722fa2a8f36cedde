/* EXPECT: mpi-error  NP: 2  RANKS: 0 */
/*
 * Checks: an error MPI raises on a file under MPI_ERRORS_ARE_FATAL, which
 * the program chose for files (MPI_File_set_errhandler on MPI_FILE_NULL:
 * the handler of MPI_File_open's errors and of files opened later; the
 * files' own default is MPI_ERRORS_RETURN). Rank 0 opens a file that does
 * not exist for reading; MPI raises the error and ends the job, and the
 * checker reports the call, its arguments, its stack and MPI's error
 * string first (mpi-error).
 *
 * Why it is an error: MPI_File_open of a missing file without
 * MPI_MODE_CREATE fails (MPI-4.0 sec. 14.2.1), and the handler the program
 * set ends the job on any error (sec. 9.3).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    if (rank == 0) {
        MPI_File_open(MPI_COMM_SELF, "/nonexistent-mpicheck-dir/input.dat", MPI_MODE_RDONLY,
                      MPI_INFO_NULL, &fh);   /* the bug: no such file */
        MPI_File_close(&fh);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
