/* EXPECT: OK  NP: 2 */
/*
 * Checks: rank 1 posts MPI_Irecv with a derived datatype (a vector),
 * frees the datatype at once, builds and commits 64 new datatypes (MPICH
 * hands out the freed handle again), then waits for the receive, which
 * rank 0 sends only after a handshake (the shape of MPICH's datatype/tfree).
 *
 * Why it is correct: a pending operation completes normally after its
 * datatype is freed (MPI-3.1 sec. 4.1.9). The checker compared the message
 * with the freed handle when the envelope arrived and crashed with MPICH
 * (SIGSEGV in MPI_Wait); it now keeps a duplicate of a datatype the program
 * frees while a request still uses it.
 */
#include <mpi.h>
#include <stdio.h>

#define N 16

int main(int argc, char **argv)
{
    int rank, buf[2 * N] = {0};
    MPI_Datatype stride, tmp[64];
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(N, 1, 2, MPI_INT, &stride);
    MPI_Type_commit(&stride);
    if (rank == 1) {
        MPI_Irecv(buf, 1, stride, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Type_free(&stride);
        for (int i = 0; i < 64; i++) {
            MPI_Type_contiguous(i + 1, MPI_CHAR, &tmp[i]);
            MPI_Type_commit(&tmp[i]);
        }
        MPI_Sendrecv(NULL, 0, MPI_INT, 0, 1, NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            if (buf[2 * i] != i)
                fprintf(stderr, "TEST FAILED: buf[%d] = %d, expected %d\n", 2 * i, buf[2 * i], i);
        for (int i = 0; i < 64; i++)
            MPI_Type_free(&tmp[i]);
    } else if (rank == 0) {
        int data[N];
        for (int i = 0; i < N; i++)
            data[i] = i;
        MPI_Sendrecv(NULL, 0, MPI_INT, 1, 1, NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(data, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Type_free(&stride);
    }
    MPI_Finalize();
    return 0;
}
