/* EXPECT: mpi-error  NP: 2  RANKS: 1 */
/*
 * Checks: a receive that MPI truncates under MPI_ERRORS_ARE_FATAL on a
 * communicator made from MPI_COMM_WORLD (which inherits its error
 * handler): rank 0 sends 4 ints, rank 1 receives into room for 2. The
 * checker's envelope already reports the truncation (type-mismatch, naming
 * the sender); then MPI raises MPI_ERR_TRUNCATE and ends the job, and the
 * checker reports that too (mpi-error, with MPI's error string) before the
 * job ends, so the run never says "no errors found".
 *
 * Why it is an error: a message longer than the receive buffer is an
 * overflow error (MPI-4.0 sec. 3.2.4), fatal under the default handler.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, v[4] = {1, 2, 3, 4};
    MPI_Comm dup;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0)
        MPI_Send(v, 4, MPI_INT, 1, 0, dup);
    else if (rank == 1)
        MPI_Recv(v, 2, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE);   /* the bug */
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
