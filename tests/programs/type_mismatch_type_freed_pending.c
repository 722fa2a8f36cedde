/* EXPECT: type-mismatch  NP: 2 */
/*
 * Checks: rank 1 posts MPI_Irecv of one vector of 16 MPI_INTs, frees the
 * datatype while the receive is pending and builds 64 new datatypes (MPICH
 * hands out the freed handle again); rank 0 then sends 16 MPI_FLOATs.
 *
 * Why it is an error: the type signatures differ (MPI_INT against
 * MPI_FLOAT, MPI-3.1 sec. 3.3.1). The checker must still compare with the
 * datatype the receive was posted with, although the program freed it.
 */
#include <mpi.h>
#include <stddef.h>

#define N 16

int main(int argc, char **argv)
{
    int rank, buf[2 * N];
    MPI_Datatype stride, tmp[64];
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Type_vector(N, 1, 2, MPI_INT, &stride);
        MPI_Type_commit(&stride);
        MPI_Irecv(buf, 1, stride, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Type_free(&stride);
        for (int i = 0; i < 64; i++) {
            MPI_Type_contiguous(i + 1, MPI_CHAR, &tmp[i]);
            MPI_Type_commit(&tmp[i]);
        }
        MPI_Sendrecv(NULL, 0, MPI_INT, 0, 1, NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < 64; i++)
            MPI_Type_free(&tmp[i]);
    } else if (rank == 0) {
        float data[N] = {0};
        MPI_Sendrecv(NULL, 0, MPI_INT, 1, 1, NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(data, N, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
