/* EXPECT: OK  NP: 2 */
/*
 * Checks: derived and special datatypes whose handles differ but whose type
 * signatures match (MPI-3.1 sec. 3.3.1, 4.1.11: only the sequence of basic
 * types matters, not layout). Rank 0 sends, rank 1 receives and checks:
 *  1. vector of 4 doubles (stride 2) received as 4 MPI_DOUBLE;
 *  2. 3 x struct {int; double} (MPI_Type_create_struct, resized) received as
 *     3 x another struct type {int; double} with other displacements;
 *  3. MPI_2INT received as MPI_2INT;
 *  4. MPI_BYTE received as MPI_BYTE;
 *  5. an int and a double packed with MPI_Pack, sent as MPI_PACKED, received
 *     as one element of the struct type of 2 (sec. 4.2: a packed message may
 *     be received with any type matching what was packed);
 *  6. 3 MPI_INT received as MPI_PACKED and unpacked (sec. 4.2: any message
 *     may be received as MPI_PACKED).
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

struct s_out { int i; double d; };
struct s_in { short s; int i; char pad[12]; double d; };

static MPI_Datatype pair_type(MPI_Aint di, MPI_Aint dd, MPI_Aint extent)
{
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {di, dd};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t, r;
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_create_resized(t, 0, extent, &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    return r;
}

int main(int argc, char **argv)
{
    int rank, k, n, pos = 0, bad = 0, i2[2][2] = {{1, 2}, {3, 4}}, ints[3] = {7, 8, 9}, vi = 5;
    double dv[8] = {0, 1, 2, 3, 4, 5, 6, 7}, d4[4], vd = 2.5;
    char bytes[13] = "hello, bytes", bin[13], pk[64];
    struct s_out so[3] = {{1, 1.5}, {2, 2.5}, {3, 3.5}};
    struct s_in si[3];
    MPI_Datatype vec, tout, tin;
    MPI_Status st;
    MPI_Comm w = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    tout = pair_type(offsetof(struct s_out, i), offsetof(struct s_out, d), sizeof(struct s_out));
    tin = pair_type(offsetof(struct s_in, i), offsetof(struct s_in, d), sizeof(struct s_in));

    if (rank == 0) {
        MPI_Send(dv, 1, vec, 1, 1, w);
        MPI_Send(so, 3, tout, 1, 2, w);
        MPI_Send(i2, 2, MPI_2INT, 1, 3, w);
        MPI_Send(bytes, 13, MPI_BYTE, 1, 4, w);
        MPI_Pack(&vi, 1, MPI_INT, pk, sizeof pk, &pos, w);
        MPI_Pack(&vd, 1, MPI_DOUBLE, pk, sizeof pk, &pos, w);
        MPI_Send(pk, pos, MPI_PACKED, 1, 5, w);
        MPI_Send(ints, 3, MPI_INT, 1, 6, w);
    } else if (rank == 1) {
        MPI_Recv(d4, 4, MPI_DOUBLE, 0, 1, w, MPI_STATUS_IGNORE);
        MPI_Recv(si, 3, tin, 0, 2, w, MPI_STATUS_IGNORE);
        for (k = 0; k < 4; k++)
            bad += d4[k] != 2 * k;
        for (k = 0; k < 3; k++)
            bad += si[k].i != k + 1 || si[k].d != k + 1.5;
        ints[0] = ints[1] = ints[2] = i2[0][0] = i2[1][1] = 0;
        MPI_Recv(i2, 2, MPI_2INT, 0, 3, w, MPI_STATUS_IGNORE);
        MPI_Recv(bin, 13, MPI_BYTE, 0, 4, w, MPI_STATUS_IGNORE);
        MPI_Recv(si, 1, tin, 0, 5, w, MPI_STATUS_IGNORE);
        MPI_Recv(pk, sizeof pk, MPI_PACKED, 0, 6, w, &st);
        MPI_Get_count(&st, MPI_PACKED, &n);
        MPI_Unpack(pk, n, &pos, ints, 3, MPI_INT, w);
        bad += i2[0][0] != 1 || i2[1][1] != 4 || bin[4] != 'o' || bin[12] != 0;
        bad += si[0].i != 5 || si[0].d != 2.5 || ints[0] != 7 || ints[2] != 9;
        if (bad)
            printf("rank 1: %d wrong values\n", bad);
    }

    MPI_Type_free(&vec);
    MPI_Type_free(&tout);
    MPI_Type_free(&tin);
    MPI_Finalize();
    return 0;
}
