/* EXPECT: OK  NP: 2 */
/*
 * Checks: a persistent buffered send started again while its last message
 * is still in transit. Rank 0 attaches a buffer and starts one
 * MPI_Bsend_init request of 64 KiB six times (MPI_Start, MPI_Wait), with
 * new data each time, before rank 1 receives anything: each start copies
 * into the attached buffer and completes at once, while the data waits
 * for the receiver. Rank 1 then receives the six messages with a
 * persistent receive and checks every value.
 *
 * Why it matters here: MPI_Start's request is INOUT (MPI-4.0 sec. 3.9),
 * and Open MPI hands out a new handle when the previous start of a
 * buffered send has not left the attached buffer yet (the old one it frees
 * itself). The checker followed the request by its first handle, so the
 * third start went unseen, without its envelope: the receiver's check
 * waited for it and the job was aborted as a deadlock.
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
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            for (int k = 0; k < N; k++)
                errs += buf[k] != k + 1000 * r;
        }
        MPI_Request_free(&req);
        if (errs)
            printf("rank 1: %d wrong values\n", errs);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    MPI_Finalize();
    return errs != 0;
}
