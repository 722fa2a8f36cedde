/* EXPECT: OK  NP: 2 */
/*
 * Checks: a short message. Rank 0 sends 5 ints, rank 1 receives with count
 * 10 and checks MPI_Get_count == 5 and the values.
 *
 * Why it is correct: the count of a receive is an upper bound; a message
 * shorter than the receive buffer is legal, only the first locations are
 * modified, and the status tells the actual length (MPI-3.1 sec. 3.2.4,
 * 3.2.5). The signatures agree on the part received (5 x int).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, count = -1, bad = 0, out[5], in[10];
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 5; i++)
        out[i] = 10 * i;
    for (i = 0; i < 10; i++)
        in[i] = -1;

    if (rank == 0) {
        MPI_Send(out, 5, MPI_INT, 1, 11, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(in, 10, MPI_INT, 0, 11, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        for (i = 0; i < 10; i++)
            bad += in[i] != (i < 5 ? 10 * i : -1);
        if (count != 5 || bad)
            printf("rank 1: count %d, %d wrong values\n", count, bad);
    }

    MPI_Finalize();
    return 0;
}
