/* EXPECT: collective-mismatch  NP: 2  TIMEOUT: 1 */
/*
 * Checks: rank 0 starts MPI_Ialltoallv on MPI_COMM_WORLD while rank 1
 * starts MPI_Igather on it; both wait for their request.
 *
 * Why it is an error: the members of a collective must call the same
 * operation (MPI-4.0 sec. 6.1). Open MPI's schedules pair the two and fail
 * with MPI_ERR_TRUNCATE in rank 0's MPI_Wait, under MPI_ERRORS_ARE_FATAL,
 * before the background handshake has judged the operations: the
 * checker's error handler drives the handshake to its verdict first, so
 * the run reports the collective-mismatch (with both operations) and not
 * only MPI's error. MPICH's handshake judges it in the wait.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, sb[8] = {0}, rb[8] = {0};
    int counts[2] = {1, 1}, displs[2] = {0, 1};
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Ialltoallv(sb, counts, displs, MPI_INT, rb, counts, displs, MPI_INT, MPI_COMM_WORLD, &req);
    else
        MPI_Igather(sb, 4, MPI_INT, rb, 4, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
