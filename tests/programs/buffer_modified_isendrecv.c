/* EXPECT: buffer-modified  NP: 2  RANKS: 0  FLAVOR: mpich */
/*
 * Checks: ranks 0 and 1 exchange 50 doubles with MPI_Isendrecv; rank 0
 * writes one element of its send buffer before MPI_Wait.
 *
 * Why it is an error: the send buffer of the send half of MPI_Isendrecv
 * must not be modified until the operation completes (MPI-4.0 sec. 3.7.2
 * and 3.10): MPI may read it at any moment until then. (Rank 1 may also
 * report that it received data other than the checksum promised, when MPI
 * sent the new value.) MPI_Isendrecv is MPI 4.0: MPICH only (Open MPI 4.1
 * lacks it).
 */
#include <mpi.h>

#define N 50

int main(int argc, char **argv)
{
    int rank;
    double s[N], r[N];
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int other = 1 - rank;
    for (int i = 0; i < N; i++)
        s[i] = rank * 1000 + i;
    MPI_Isendrecv(s, N, MPI_DOUBLE, other, 0, r, N, MPI_DOUBLE, other, 0, MPI_COMM_WORLD, &req);
    if (rank == 0)
        s[7] = -1.0;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
