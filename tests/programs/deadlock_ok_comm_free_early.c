/* EXPECT: OK  NP: 3 */
/*
 * Checks: rank 2 posts a receive on a duplicate of MPI_COMM_WORLD, frees
 * the duplicate at once and joins MPI_Comm_split on MPI_COMM_WORLD; ranks
 * 0 and 1 join that split first and free their duplicate only at the end;
 * rank 0 then sends the message on its duplicate (the shape of MPICH's
 * comm/cmfree).
 *
 * Why it is correct: a pending receive completes normally after its
 * communicator is freed (MPI-3.1 sec. 6.4.3), and MPI_Comm_free does not
 * wait for the other members in any implementation. The checker once ran a
 * collective handshake in MPI_Comm_free, so rank 2 waited there for ranks 0
 * and 1, which waited for rank 2 in MPI_Comm_split: a false deadlock that
 * ended the job.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, buf[4] = {0};
    MPI_Comm dup, split;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 2) {
        MPI_Irecv(buf, 4, MPI_INT, 0, 0, dup, &req);
        MPI_Comm_free(&dup);
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
        MPI_Sendrecv(NULL, 0, MPI_INT, 0, 1, NULL, 0, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (buf[0] != 1 || buf[3] != 4)
            fprintf(stderr, "TEST FAILED: rank 2 received %d..%d\n", buf[0], buf[3]);
    } else {
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
        if (rank == 0) {
            int data[4] = {1, 2, 3, 4};
            MPI_Sendrecv(NULL, 0, MPI_INT, 2, 1, NULL, 0, MPI_INT, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(data, 4, MPI_INT, 2, 0, dup);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 2)
        MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
    MPI_Finalize();
    return 0;
}
