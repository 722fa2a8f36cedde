/* EXPECT: type-mismatch  NP: 3 */
/*
 * Checks: type matching through MPI_ANY_SOURCE receives. Ranks 1 and 2 both
 * send to rank 0, rank 1 two MPI_INT, rank 2 two MPI_DOUBLE (BUG: rank 0
 * receives every message as MPI_INT). Rank 0 receives with MPI_ANY_SOURCE,
 * once with MPI_Recv and once with MPI_Irecv + MPI_Wait, so whichever order
 * the messages come in, one receive gets rank 2's doubles.
 *
 * Why it is an error: the type signature of a message must match the
 * receive's (MPI-3.1 sec. 3.3.1); {MPI_DOUBLE, MPI_DOUBLE} is not a prefix of
 * 4 x MPI_INT, even though 16 bytes fit.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, ibuf[4];
    double dbuf[2] = {1.5, 2.5};
    int iout[2] = {7, 8};
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv(ibuf, 4, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Irecv(ibuf, 4, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Send(iout, 2, MPI_INT, 0, 5, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Send(dbuf, 2, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
