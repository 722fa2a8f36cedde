/* EXPECT: OK  NP: 3 */
/*
 * Checks: MPI_Allreduce results when the checker folds small reductions
 * into their handshakes (src/coll/hs_p2p.c), after 40 barriers have
 * switched MPI_COMM_WORLD's handshakes to point-to-point: predefined
 * types and operations it folds (int, double, float, long, unsigned char,
 * C bool, MPI_2INT with MPI_MAXLOC, MPI_IN_PLACE, a count of 0) and ones it
 * leaves to MPI (MPI_DOUBLE_INT, a pair type with padding; 64 doubles,
 * more than it carries; a user operation), each result
 * compared with the value it must have, on 3 ranks (not a power of two).
 *
 * Why it is correct: every member calls each reduction with the same
 * count, datatype and operation (MPI-4.0 sec. 6.9.6).
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>

static int failures;
#define EXPECT(cond, what) do { if (!(cond)) { fprintf(stderr, "wrong result: %s\n", what); failures++; } } while (0)

static void max_int(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)t;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 40; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    int n = size, tri = size * (size - 1) / 2;

    int is[4] = {rank, 2 * rank, 1, -rank}, io[4];
    MPI_Allreduce(is, io, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(io[0] == tri && io[1] == 2 * tri && io[2] == n && io[3] == -tri, "MPI_INT MPI_SUM");
    double ds[2] = {0.5 * rank, 1.0}, dout[2];
    MPI_Allreduce(ds, dout, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(dout[0] == 0.5 * tri && dout[1] == n, "MPI_DOUBLE MPI_SUM");
    float fs = (float)rank, fo;
    MPI_Allreduce(&fs, &fo, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT(fo == (float)(size - 1), "MPI_FLOAT MPI_MAX");
    long ls = 100 - rank, lo;
    MPI_Allreduce(&ls, &lo, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    EXPECT(lo == 100 - (size - 1), "MPI_LONG MPI_MIN");
    unsigned char us = (unsigned char)(1u << rank), uo;
    MPI_Allreduce(&us, &uo, 1, MPI_UNSIGNED_CHAR, MPI_BOR, MPI_COMM_WORLD);
    EXPECT(uo == (unsigned char)((1u << size) - 1), "MPI_UNSIGNED_CHAR MPI_BOR");
    bool bs = rank != 1, bo;
    MPI_Allreduce(&bs, &bo, 1, MPI_C_BOOL, MPI_LAND, MPI_COMM_WORLD);
    EXPECT(!bo, "MPI_C_BOOL MPI_LAND");
    struct { int v, i; } ps = {rank % 2 ? 50 : rank, rank}, po;
    MPI_Allreduce(&ps, &po, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
    EXPECT(po.v == 50 && po.i == 1, "MPI_2INT MPI_MAXLOC");
    struct { double v; int i; } qs = {-(double)rank, rank}, qo;
    MPI_Allreduce(&qs, &qo, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    EXPECT(qo.v == -(double)(size - 1) && qo.i == size - 1, "MPI_DOUBLE_INT MPI_MINLOC");
    int ip[2] = {rank + 1, 2};
    MPI_Allreduce(MPI_IN_PLACE, ip, 2, MPI_INT, MPI_PROD, MPI_COMM_WORLD);
    int fact = 1;
    for (int r = 1; r <= size; r++)
        fact *= r;
    EXPECT(ip[0] == fact && ip[1] == 1 << size, "MPI_IN_PLACE MPI_INT MPI_PROD");
    int none = 7, none_out = 9;
    MPI_Allreduce(&none, &none_out, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(none_out == 9, "a count of 0");
    double big[64], bigo[64];
    for (int k = 0; k < 64; k++)
        big[k] = k + rank;
    MPI_Allreduce(big, bigo, 64, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(bigo[0] == tri && bigo[63] == 63.0 * n + tri, "64 MPI_DOUBLE MPI_SUM");
    MPI_Op mine;
    MPI_Op_create(max_int, 1, &mine);
    int us2 = rank * 3, uo2;
    MPI_Allreduce(&us2, &uo2, 1, MPI_INT, mine, MPI_COMM_WORLD);
    EXPECT(uo2 == 3 * (size - 1), "a user operation");
    MPI_Op_free(&mine);
    for (int i = 0; i < 50; i++) {     /* many folded calls in a row */
        int v = rank + i, s = 0;
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        EXPECT(s == n * i + tri, "MPI_INT MPI_SUM in a loop");
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
