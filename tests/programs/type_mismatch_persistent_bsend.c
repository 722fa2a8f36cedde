/* EXPECT: type-mismatch  NP: 2 */
/*
 * Checks: a type mismatch on the last of six starts of a persistent
 * buffered send. Rank 0 starts one MPI_Bsend_init request of 16384
 * MPI_INT six times before rank 1 receives anything; rank 1 receives the
 * first five as MPI_INT and the sixth as MPI_FLOAT (the same size, so MPI
 * sees no truncation).
 *
 * Why it is an error: {int} sent, {float} received (MPI-4.0 sec. 3.3.1).
 * Why it matters here: Open MPI hands out a new handle at a start whose
 * last message is still in the attached buffer (MPI_Start's request is
 * INOUT); the checker must follow the request to its new handle to send
 * the sixth envelope at all (before, the third start went unseen and the
 * job ended as a deadlock, not with this finding).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 16384
#define ROUNDS 6

int main(int argc, char **argv)
{
    int rank, errs = 0, replaced = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *buf = malloc(N * sizeof(int));
    MPI_Request req;

    if (rank == 0) {
        int size = ROUNDS * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
        void *attached = malloc(size);
        MPI_Buffer_attach(attached, size);
        MPI_Bsend_init(buf, N, MPI_INT, 1, 5, MPI_COMM_WORLD, &req);
        for (int r = 0; r < ROUNDS; r++) {
            MPI_Request before = req;
            for (int k = 0; k < N; k++)
                buf[k] = k + 1000 * r;
            MPI_Start(&req);
            replaced += req != before;
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&req);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Buffer_detach(&attached, &size);
        free(attached);
        printf("rank 0: MPI_Start handed out a new handle %d times\n", replaced);
    } else if (rank == 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv_init(buf, N, MPI_INT, 0, 5, MPI_COMM_WORLD, &req);
        for (int r = 0; r < ROUNDS; r++) {
            if (r == ROUNDS - 1) {
                MPI_Request_free(&req);
                /* BUG: ints received as floats */
                MPI_Recv(buf, N, MPI_FLOAT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                break;
            }
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            for (int k = 0; k < N; k++)
                errs += buf[k] != k + 1000 * r;
        }
        if (errs)
            printf("rank 1: %d wrong values\n", errs);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    MPI_Finalize();
    return errs != 0;
}
