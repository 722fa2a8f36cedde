/* A correct program across nodes: a ring of messages, a reduction, a
 * communicator split by node. Must stay silent. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, token = rank, got = -1;
    for (int i = 0; i < 20; i++) {
        MPI_Request r;
        MPI_Irecv(&got, 1, MPI_INT, prev, i, MPI_COMM_WORLD, &r);
        MPI_Send(&token, 1, MPI_INT, next, i, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        token = got;
    }
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int nsize, sum = 0;
    MPI_Comm_size(node, &nsize);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ring done, sum %d, %d ranks on this node\n", sum, nsize);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
