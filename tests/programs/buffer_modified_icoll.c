/* EXPECT: buffer-modified  NP: 3  RANKS: 1 */
/*
 * Checks: every rank starts an MPI_Iallreduce of 100 ints; rank 1 writes
 * one element of its sendbuf before MPI_Wait. The other ranks leave their
 * buffers alone.
 *
 * Why it is an error: "all associated send buffers [...] should not be
 * modified [...] until the collective operation completes" (MPI-4.0 sec.
 * 6.12). MPI may read the send buffer at any moment until MPI_Wait returns,
 * so the sum holds rank 1's old value, its new one, or a mix. The checker
 * hashes the send part when the call returns and again at MPI_Wait, and
 * names both calls.
 */
#include <mpi.h>

#define N 100

int main(int argc, char **argv)
{
    int rank, in[N], out[N];
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < N; i++)
        in[i] = rank + i;
    MPI_Iallreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    if (rank == 1)
        in[N - 1] = -1;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
