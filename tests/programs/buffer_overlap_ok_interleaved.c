/* EXPECT: OK  NP: 3 */
/*
 * Checks: buffers of one call that share memory without sharing data; none
 * may be reported as buffer-overlap.
 *  - MPI_Sendrecv that sends the even ints of an array (a vector datatype,
 *    stride 2) and receives into its odd ints: the extents overlap, the
 *    bytes do not;
 *  - MPI_Sendrecv from the first half of an array into the second half;
 *  - MPI_Sendrecv_replace (one buffer, by design);
 *  - MPI_Allreduce with MPI_IN_PLACE;
 *  - MPI_Gather whose receive buffer at non-roots is the send buffer (it is
 *    not significant there), and MPI_Reduce likewise;
 *  - MPI_Sendrecv with count 0 on both sides from the same pointer.
 */
#include <mpi.h>
#include <stdio.h>

#define N 8

int main(int argc, char **argv)
{
    int rank, size, a[2 * N], sum = 0;
    MPI_Datatype every_other;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 2 * N; i++)
        a[i] = i % 2 ? -1 : rank;
    MPI_Sendrecv(a, 1, every_other, right, 0, a + 1, 1, every_other, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        if (a[2 * i + 1] != left)
            printf("TEST FAILED: a[%d] is %d, not %d\n", 2 * i + 1, a[2 * i + 1], left);
    MPI_Sendrecv(a, N, MPI_INT, right, 1, a + N, N, MPI_INT, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv_replace(a, N, MPI_INT, right, 2, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum = rank;
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Gather(a, 1, MPI_INT, rank == 0 ? a + N : a, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Reduce(a, rank == 0 ? a + N : a, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Sendrecv(a, 0, MPI_INT, right, 3, a, 0, MPI_INT, left, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return 0;
}
