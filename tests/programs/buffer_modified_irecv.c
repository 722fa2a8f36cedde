/* EXPECT: buffer-modified  NP: 2  RANKS: 1 */
/*
 * Checks: rank 1 posts MPI_Irecv of 100 ints, learns from a later message
 * (tag 1, which rank 0 sends after the data; messages between a pair do not
 * overtake each other) that the data has come, increments the first int
 * of the receive buffer, and only then completes the receive with MPI_Wait.
 *
 * Why it is an error: the buffer of a nonblocking receive must not be
 * accessed until the receive completes (MPI-4.0 sec. 3.7.2); whether the
 * increment survives depends on when MPI writes the data. The checker
 * compares the received bytes at MPI_Wait with the checksum the sender's
 * MPI_Isend put in its envelope.
 */
#include <mpi.h>
#include <stddef.h>

#define N 100

int main(int argc, char **argv)
{
    int rank, x[N], y[N];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < N; i++)
            y[i] = i;
        MPI_Isend(y, N, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(x, N, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        MPI_Recv(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        x[0]++;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
