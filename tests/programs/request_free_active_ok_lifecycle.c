/* EXPECT: OK  NP: 2 */
/*
 * Checks: the legal ways to use, complete and free requests; none may be
 * reported as request-free-active or as a misused handle.
 *  - persistent requests freed while inactive: never started, and started,
 *    completed by MPI_Wait, then freed (MPI-4.0 sec. 3.9: the way to
 *    release them);
 *  - two persistent requests started by one MPI_Startall, three times;
 *  - MPI_Cancel of a pending receive, completed by MPI_Wait (sec. 3.8.4);
 *  - MPI_Request_get_status on a live request, then MPI_Wait;
 *  - sends and receives with MPI_PROC_NULL, whose requests MPI completes at
 *    once: Open MPI hands out one shared handle for all of them, and each
 *    copy is completed by its own MPI_Wait;
 *  - 2,000 MPI_Isend/MPI_Irecv pairs, more than the checker remembers of
 *    ended requests, so MPI hands the same handles out again and again;
 *  - MPI_Ibarrier completed by MPI_Wait;
 *  - MPI_Waitall over an array that holds MPI_REQUEST_NULL.
 * Status arrays are real arrays: MPICH 4.0's mpi.h makes gcc 12 warn
 * (-Wstringop-overflow) about MPI_STATUSES_IGNORE in the array calls.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, peer, x[2] = {1, 2}, y[2] = {0, 0}, flag = 0;
    MPI_Request r[4], p[2];
    MPI_Status st, sts[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = 1 - rank;

    MPI_Send_init(x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &p[0]);
    MPI_Request_free(&p[0]);

    MPI_Send_init(x, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &p[0]);
    MPI_Recv_init(y, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &p[1]);
    for (int i = 0; i < 3; i++) {
        MPI_Startall(2, p);
        MPI_Wait(&p[1], MPI_STATUS_IGNORE);
        MPI_Wait(&p[0], MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);

    MPI_Irecv(y, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], &st);
    MPI_Test_cancelled(&st, &flag);
    if (!flag)
        printf("TEST FAILED: the receive was not cancelled\n");

    MPI_Irecv(y, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[0]);
    MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE);
    MPI_Send(x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);

    MPI_Isend(x, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(x, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &r[1]);
    MPI_Irecv(y, 1, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &r[2]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    MPI_Wait(&r[2], MPI_STATUS_IGNORE);

    for (int i = 0; i < 2000; i++) {
        MPI_Irecv(&y[i % 2], 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&x[i % 2], 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &r[1]);
        if (i % 2)
            MPI_Waitall(2, r, sts);
        else {
            MPI_Wait(&r[1], MPI_STATUS_IGNORE);
            do
                MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
            while (!flag);
        }
    }

    MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
    r[1] = MPI_REQUEST_NULL;
    MPI_Waitall(2, r, sts);
    MPI_Finalize();
    return 0;
}
