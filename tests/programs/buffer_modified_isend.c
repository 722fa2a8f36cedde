/* EXPECT: buffer-modified  NP: 2  RANKS: 0 */
/*
 * Checks: rank 0 starts an MPI_Isend of 1,000 doubles and writes one of
 * them before MPI_Wait; then it does the same with a persistent send
 * (MPI_Send_init, MPI_Start, a write, MPI_Wait). Rank 1 receives only
 * after rank 0 has written, so both sends are still active then.
 *
 * Why it is an error: the buffer of a nonblocking send must not be
 * modified until the send completes (MPI-4.0 sec. 3.7.2): MPI may read it
 * at any moment until then, and the receiver gets the old value, the new
 * one or a mix. The checker compares a checksum of the buffer taken at the
 * start with one taken at MPI_Wait, and names both calls.
 */
#include <mpi.h>
#include <stddef.h>

#define N 1000

int main(int argc, char **argv)
{
    int rank;
    double a[N], b[N];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < N; i++)
        a[i] = i;
    if (rank == 0) {
        MPI_Isend(a, N, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &r);
        a[N / 2] = -1.0;
        MPI_Send(NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);

        MPI_Send_init(a, N, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        a[0] = -2.0;
        MPI_Send(NULL, 0, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
    } else if (rank == 1) {
        MPI_Recv(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(b, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(NULL, 0, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(b, N, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
