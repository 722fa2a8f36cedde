/* EXPECT: OK  NP: 2 */
/*
 * Checks: uses of receive buffers the standard allows; none may be
 * reported as buffer-modified.
 *  - MPI_Irecv, then MPI_Request_get_status until it says the receive is
 *    complete, then the buffer written, then MPI_Wait to free the request
 *    (get_status reports completion without freeing, MPI-4.0 sec. 3.7.3);
 *    the same for an MPI_Isend's buffer;
 *  - a receive with a vector datatype whose holes the program writes while
 *    the receive is active (they are not part of the message), from a
 *    contiguous send of the same signature;
 *  - a receive of room for 10 ints that gets 4, from a persistent send;
 *  - the buffer written right after MPI_Wait and after a successful
 *    MPI_Test.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#define N 32

int main(int argc, char **argv)
{
    int rank, flag = 0, a[N], b[2 * N];
    MPI_Datatype every_other;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < N; i++)
        a[i] = i;
    if (rank == 0) {
        MPI_Isend(a, N, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        do
            MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
        while (!flag);
        a[0] = -1;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        a[0] = 0;
        MPI_Isend(a, N, MPI_INT, 1, 1, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Send_init(a, 4, MPI_INT, 1, 2, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
        MPI_Isend(a, N, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Irecv(b, N, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
        do
            MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
        while (!flag);
        b[0] = 99;
        MPI_Wait(&r, MPI_STATUS_IGNORE);

        MPI_Irecv(b, 1, every_other, 0, 1, MPI_COMM_WORLD, &r);
        for (int i = 1; i < 2 * N; i += 2)
            b[i] = -i;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            if (b[2 * i] != i)
                printf("TEST FAILED: b[%d] is %d, not %d\n", 2 * i, b[2 * i], i);
        b[0] = 5;

        MPI_Irecv(b, 10, MPI_INT, 0, 2, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        b[1] = 5;

        MPI_Irecv(b, N, MPI_INT, 0, 3, MPI_COMM_WORLD, &r);
        do
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        while (!flag);
        b[2] = 5;
    }
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return 0;
}
