/* EXPECT: mpi-error  NP: 2  RANKS: 0  SAYS: MPI_Isend */
/*
 * Checks: rank 0 passes a datatype handle that is no datatype (0, a NULL
 * pointer in Open MPI) to MPI_Isend; MPI raises MPI_ERR_TYPE under
 * MPI_ERRORS_ARE_FATAL and ends the job, and the checker reports the call
 * first (mpi-error), with its arguments.
 *
 * Why it is an error: a datatype argument must be a valid datatype handle
 * (MPI-4.0 sec. 3.2.2). MPI-CorrBench's pt2pt/ArgMismatch-MPIISend-Type.
 *
 * What broke: rendering the call's arguments for the report asked MPI for
 * the handle's name (PMPI_Type_get_name), MPI raised the same error again
 * inside the checker's own report, the checker's handler took it as the
 * program's and ended the job in the middle of the first report: the
 * finding was lost ("no errors found" after "aborting the job after the
 * error MPI raised"). The handler now leaves errors of the checker's own
 * queries to the checker.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Datatype bad = (MPI_Datatype)0;
        MPI_Isend(buf, 4, bad, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
