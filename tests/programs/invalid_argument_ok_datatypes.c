/* EXPECT: OK  NP: 2 */
/*
 * Checks: valid uses of derived datatypes that a naive checker would flag; no
 * finding expected.
 *
 *  - MPI_Send/MPI_Recv with buffer MPI_BOTTOM and a committed struct type whose
 *    displacements are absolute addresses from MPI_Get_address (MPI-4.0 sec.
 *    5.1.12, correct use of addresses): the buffer is not NULL-by-mistake, the
 *    datatype carries the addresses. (MPI_BOTTOM is address 0 in both
 *    libraries, the same value as NULL.)
 *  - a committed vector type (one matrix column) used in a send and a receive;
 *    received once as 4 MPI_INT (same type signature, sec. 3.3.1) and once
 *    with the vector type itself.
 *  - a type from MPI_Type_dup of a committed type, used without its own
 *    commit: the new type has the same committed state as the old one
 *    (MPI_TYPE_DUP, sec. 5.1.10).
 *  - predefined types (MPI_INT, MPI_DOUBLE) are used without commit, as always.
 * Every derived type is freed.
 */
#include <mpi.h>
#include <stdio.h>

#define N 4

int main(int argc, char **argv)
{
    int rank, i, j;
    int a;
    double b[2];
    int blocklens[2] = {1, 2};
    MPI_Aint displs[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype abs_struct, column, column_dup;
    int m[N][N], col[N];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* 1. MPI_BOTTOM + absolute addresses; each rank describes its own variables. */
    MPI_Get_address(&a, &displs[0]);
    MPI_Get_address(b, &displs[1]);
    MPI_Type_create_struct(2, blocklens, displs, types, &abs_struct);
    MPI_Type_commit(&abs_struct);
    if (rank == 0) {
        a = 42;
        b[0] = 1.5;
        b[1] = -2.25;
        MPI_Send(MPI_BOTTOM, 1, abs_struct, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        a = 0;
        b[0] = b[1] = 0.0;
        MPI_Recv(MPI_BOTTOM, 1, abs_struct, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (a != 42 || b[0] != 1.5 || b[1] != -2.25) {
            fprintf(stderr, "rank 1: MPI_BOTTOM struct receive wrong\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Type_free(&abs_struct);

    /* 2. A committed vector: column 1 of an N x N row-major matrix. */
    MPI_Type_vector(N, 1, N, MPI_INT, &column);
    MPI_Type_commit(&column);
    MPI_Type_dup(column, &column_dup);      /* committed, as column is */
    if (rank == 0) {
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                m[i][j] = 10 * i + j;
        MPI_Send(&m[0][1], 1, column, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&m[0][2], 1, column_dup, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        /* column -> contiguous ints: the signatures are both 4 x MPI_INT */
        MPI_Recv(col, N, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < N; i++)
            if (col[i] != 10 * i + 1) {
                fprintf(stderr, "rank 1: column receive wrong\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        /* column -> column 3 of the local matrix */
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                m[i][j] = -1;
        MPI_Recv(&m[0][3], 1, column, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < N; i++)
            if (m[i][3] != 10 * i + 2 || m[i][0] != -1) {
                fprintf(stderr, "rank 1: vector receive wrong\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
    }
    MPI_Type_free(&column_dup);
    MPI_Type_free(&column);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("invalid_argument_ok_datatypes: done\n");
    MPI_Finalize();
    return 0;
}
