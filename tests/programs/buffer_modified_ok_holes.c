/* EXPECT: OK  NP: 2 */
/*
 * Checks: writes near active sends that the standard allows; none may be
 * reported as buffer-modified.
 *  - an MPI_Isend of a vector datatype (every other int): the program
 *    writes the ints in the holes while the send is active; they are not
 *    part of the message;
 *  - an MPI_Isend from MPI_BOTTOM with a struct datatype of absolute
 *    addresses, left alone until MPI_Wait;
 *  - a persistent send started three times, the buffer rewritten between
 *    a completion and the next start;
 *  - a buffer rewritten right after MPI_Wait, and one after a successful
 *    MPI_Test;
 *  - a zero-count send with a NULL buffer.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#define N 64

int main(int argc, char **argv)
{
    int rank, v[2 * N], w[2 * N], flag = 0;
    double d = 1.5, e = 0;
    MPI_Datatype every_other, abs_type;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 2 * N; i++)
        v[i] = i;
    if (rank == 0) {
        MPI_Isend(v, 1, every_other, 1, 0, MPI_COMM_WORLD, &r);
        for (int i = 1; i < 2 * N; i += 2)
            v[i] = -i;                      /* the holes */
        MPI_Send(NULL, 0, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);

        MPI_Aint addr;
        int one = 1;
        MPI_Get_address(&d, &addr);
        MPI_Type_create_struct(1, &one, &addr, (MPI_Datatype[]){MPI_DOUBLE}, &abs_type);
        MPI_Type_commit(&abs_type);
        MPI_Isend(MPI_BOTTOM, 1, abs_type, 1, 2, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        d = 2.5;
        MPI_Type_free(&abs_type);

        MPI_Send_init(v, N, MPI_INT, 1, 3, MPI_COMM_WORLD, &r);
        for (int k = 0; k < 3; k++) {
            MPI_Start(&r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            v[k] = 100 + k;
        }
        MPI_Request_free(&r);

        MPI_Isend(v, N, MPI_INT, 1, 4, MPI_COMM_WORLD, &r);
        do
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        while (!flag);
        v[0] = 7;

        MPI_Isend(NULL, 0, MPI_INT, 1, 5, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(w, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            if (w[i] != 2 * i)
                printf("TEST FAILED: element %d is %d, not %d\n", i, w[i], 2 * i);
        MPI_Recv(&e, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (e != 1.5)
            printf("TEST FAILED: received %g, not 1.5\n", e);
        for (int k = 0; k < 3; k++)
            MPI_Recv(w, N, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(w, N, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(NULL, 0, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return 0;
}
