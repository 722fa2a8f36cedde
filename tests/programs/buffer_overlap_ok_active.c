/* EXPECT: OK  NP: 2 */
/*
 * Checks: operations active at the same time on one array without sharing
 * a data byte, and sends sharing a buffer; none may be reported as
 * buffer-overlap.
 *  - MPI_Irecv into the first half of an array and MPI_Irecv into the
 *    second half, both pending;
 *  - MPI_Irecv into the even ints and MPI_Irecv into the odd ints of one
 *    array (two vector datatypes: their extents overlap, their bytes do not);
 *  - two MPI_Isend from the same buffer at once (sends only read it);
 *  - a persistent receive into a buffer, inactive, while an MPI_Irecv into
 *    the same buffer is pending, then started once that one completed;
 *  - three MPI_Irecv into one buffer, pending together (the buffer ends up
 *    holding one of the messages: MPICH's pt2pt/dtype_send does this).
 */
#include <mpi.h>
#include <stdio.h>

#define N 8

int main(int argc, char **argv)
{
    int rank, a[2 * N], s[2 * N];
    MPI_Datatype every_other;
    MPI_Request r[4];
    MPI_Status st[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(N, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 2 * N; i++)
        s[i] = i;
    int peer = 1 - rank;
    if (rank < 2) {
        MPI_Irecv(a, N, MPI_INT, peer, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(a + N, N, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Isend(s, N, MPI_INT, peer, 0, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(s, N, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[3]);
        MPI_Waitall(4, r, st);

        MPI_Irecv(a, 1, every_other, peer, 2, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(a + 1, 1, every_other, peer, 3, MPI_COMM_WORLD, &r[1]);
        MPI_Isend(s, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[2]);
        MPI_Isend(s + N, N, MPI_INT, peer, 3, MPI_COMM_WORLD, &r[3]);
        MPI_Waitall(4, r, st);
        for (int i = 0; i < N; i++)
            if (a[2 * i] != i || a[2 * i + 1] != N + i)
                printf("TEST FAILED: a[%d..%d] = %d %d\n", 2 * i, 2 * i + 1, a[2 * i], a[2 * i + 1]);

        MPI_Recv_init(a, N, MPI_INT, peer, 4, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(a, N, MPI_INT, peer, 5, MPI_COMM_WORLD, &r[1]);
        MPI_Isend(s, N, MPI_INT, peer, 5, MPI_COMM_WORLD, &r[2]);
        MPI_Waitall(2, r + 1, st);
        MPI_Start(&r[0]);
        MPI_Isend(s, N, MPI_INT, peer, 4, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, st);
        MPI_Request_free(&r[0]);

        for (int k = 0; k < 3; k++)
            MPI_Irecv(a, N, MPI_INT, peer, 6, MPI_COMM_WORLD, &r[k]);
        for (int k = 0; k < 3; k++)
            MPI_Send(s, N, MPI_INT, peer, 6, MPI_COMM_WORLD);
        MPI_Waitall(3, r, st);
    }
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return 0;
}
