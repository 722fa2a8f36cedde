/* EXPECT: OK  NP: 3 */
/*
 * Checks: a plainly correct program using derived datatypes; no finding
 * expected. Every type is committed before it communicates and freed at the
 * end; sender and receiver types have the same type signature (MPI-4.0
 * sec. 3.3.1) even where their layouts differ.
 *  - struct: an array of C structs {int id; double pos[3]; char tag;} sent with
 *    MPI_Type_create_struct (offsets from offsetof), resized with
 *    MPI_Type_create_resized to sizeof(struct) so that count > 1 steps over
 *    trailing padding;
 *  - vector: the columns of a row-major matrix, scattered from rank 0, one
 *    column per rank, with a vector type resized to one int so that
 *    consecutive columns start one int apart (the classic "scatter columns"
 *    idiom), received as contiguous ints;
 *  - subarray: an interior 2x3 block of a 4x5 array (MPI_Type_create_subarray)
 *    sent to a 2x3 block inside a differently shaped array on the receiver;
 *  - hvector and indexed types built on top of other derived types.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#define MAXP 16
#define NPART 4

typedef struct {
    int id;
    double pos[3];
    char tag;
} particle;

static void check(int ok, int rank, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result of %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int rank, size, i, j, k;
    particle parts[NPART];
    int blocklens[3] = {1, 3, 1};
    MPI_Aint displs[3] = {offsetof(particle, id), offsetof(particle, pos),
                          offsetof(particle, tag)};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype part_raw, part_type, col, col_resized, sub_send, sub_recv;
    MPI_Datatype pairs, pair_rows, idx_type;
    int mat[4][MAXP], column[4];
    int big[4][5], other[3][6];
    int sizes[2], subsizes[2], starts[2];
    int idx_blocklens[2] = {2, 1}, idx_displs[2] = {0, 5}, ints[8], back[8];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > MAXP || size < 2)
        MPI_Abort(MPI_COMM_WORLD, 2);

    /* struct, resized to the C struct's extent */
    MPI_Type_create_struct(3, blocklens, displs, types, &part_raw);
    MPI_Type_create_resized(part_raw, 0, sizeof(particle), &part_type);
    MPI_Type_commit(&part_type);
    if (rank == 0) {
        for (i = 0; i < NPART; i++) {
            parts[i].id = i;
            parts[i].pos[0] = i + 0.5;
            parts[i].pos[1] = -i;
            parts[i].pos[2] = 2.0 * i;
            parts[i].tag = (char)('a' + i);
        }
        for (k = 1; k < size; k++)
            MPI_Send(parts, NPART, part_type, k, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(parts, NPART, part_type, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < NPART; i++)
            check(parts[i].id == i && parts[i].pos[2] == 2.0 * i &&
                  parts[i].tag == 'a' + i, rank, "struct send");
    }

    /* vector: scatter one column of a 4 x size matrix to each rank */
    MPI_Type_vector(4, 1, MAXP, MPI_INT, &col);
    MPI_Type_create_resized(col, 0, sizeof(int), &col_resized);
    MPI_Type_commit(&col_resized);
    if (rank == 0)
        for (i = 0; i < 4; i++)
            for (j = 0; j < MAXP; j++)
                mat[i][j] = 100 * i + j;
    MPI_Scatter(mat, 1, col_resized, column, 4, MPI_INT, 0, MPI_COMM_WORLD);
    for (i = 0; i < 4; i++)
        check(column[i] == 100 * i + rank, rank, "column scatter");

    /* subarray: block rows 1..2, cols 1..3 of big[4][5] on rank 0 goes to
     * rows 0..1, cols 2..4 of other[3][6] on rank 1 */
    if (rank == 0) {
        sizes[0] = 4; sizes[1] = 5;
        subsizes[0] = 2; subsizes[1] = 3;
        starts[0] = 1; starts[1] = 1;
        MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT,
                                 &sub_send);
        MPI_Type_commit(&sub_send);
        for (i = 0; i < 4; i++)
            for (j = 0; j < 5; j++)
                big[i][j] = 10 * i + j;
        MPI_Send(big, 1, sub_send, 1, 1, MPI_COMM_WORLD);
        MPI_Type_free(&sub_send);
    } else if (rank == 1) {
        sizes[0] = 3; sizes[1] = 6;
        subsizes[0] = 2; subsizes[1] = 3;
        starts[0] = 0; starts[1] = 2;
        MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT,
                                 &sub_recv);
        MPI_Type_commit(&sub_recv);
        for (i = 0; i < 3; i++)
            for (j = 0; j < 6; j++)
                other[i][j] = -1;
        MPI_Recv(other, 1, sub_recv, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 2; i++)
            for (j = 0; j < 3; j++)
                check(other[i][j + 2] == 10 * (i + 1) + (j + 1), rank, "subarray");
        check(other[2][0] == -1 && other[0][0] == -1, rank, "subarray untouched");
        MPI_Type_free(&sub_recv);
    }

    /* indexed type over a contiguous pair type, and an hvector of pairs;
     * only the final types are committed (intermediate ones need not be). */
    MPI_Type_contiguous(2, MPI_INT, &pairs);
    MPI_Type_indexed(2, idx_blocklens, idx_displs, MPI_INT, &idx_type);
    MPI_Type_create_hvector(2, 1, 2 * sizeof(int) * 2, pairs, &pair_rows);
    MPI_Type_commit(&idx_type);
    MPI_Type_commit(&pair_rows);
    for (i = 0; i < 8; i++) {
        ints[i] = i;
        back[i] = -1;
    }
    /* sendrecv with oneself through the pair of types: 3 ints each way */
    MPI_Sendrecv(ints, 1, idx_type, rank, 2, back, 3, MPI_INT, rank, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(back[0] == 0 && back[1] == 1 && back[2] == 5, rank, "indexed");
    /* hvector of 2 pairs with a stride of 4 ints: ints 0,1 and 4,5 */
    MPI_Sendrecv(ints, 1, pair_rows, rank, 3, back, 4, MPI_INT, rank, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    check(back[0] == 0 && back[1] == 1 && back[2] == 4 && back[3] == 5, rank,
          "hvector");

    MPI_Type_free(&pair_rows);
    MPI_Type_free(&idx_type);
    MPI_Type_free(&pairs);
    MPI_Type_free(&col_resized);
    MPI_Type_free(&col);
    MPI_Type_free(&part_type);
    MPI_Type_free(&part_raw);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("ok_derived_datatypes: done\n");
    MPI_Finalize();
    return 0;
}
