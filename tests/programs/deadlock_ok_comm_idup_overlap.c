/* EXPECT: OK  NP: 4 */
/*
 * Checks: MPI_Comm_idup of MPI_COMM_WORLD started together with
 * MPI_Iallreduce on MPI_COMM_WORLD, several times before one MPI_Waitall,
 * then several MPI_Comm_idup at once; every new communicator is used
 * (barrier, a message) and freed (the shapes of MPICH's
 * comm/comm_idup_iallreduce and comm/comm_idup_mul).
 *
 * Why it is correct: nonblocking collectives, MPI_Comm_idup among them,
 * may be outstanding together on one communicator as long as every member
 * starts them in the same order (MPI-3.1 sec. 5.12). The checker once
 * started its own handshake reductions on the shadow of MPI_COMM_WORLD
 * while its idup of that shadow was still agreeing on a context id, and
 * tested them inside the application's nonblocking calls: with Open MPI,
 * whose idup starts its later rounds from the progress engine, the rounds
 * paired with different collectives on different ranks (MPI_ERR_TRUNCATE
 * inside libnbc, then a false deadlock, or a hang).
 */
#include <mpi.h>
#include <stdio.h>

#define N 4

int main(int argc, char **argv)
{
    int rank, size, in = 1, out[N], errs = 0;
    MPI_Comm c[N];
    MPI_Request r[2 * N];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int i = 0; i < N; i++) {
        MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &r[i]);
        MPI_Iallreduce(&in, &out[i], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[N + i]);
    }
    MPI_Waitall(2 * N, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i++) {
        if (out[i] != size)
            errs++;
        int token = rank, got = -1;
        MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT, (rank + size - 1) % size, 0,
                     c[i], MPI_STATUS_IGNORE);
        if (got != (rank + size - 1) % size)
            errs++;
        MPI_Comm_free(&c[i]);
    }

    for (int i = 0; i < N; i++)
        MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &r[i]);
    MPI_Waitall(N, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i++) {
        MPI_Barrier(c[i]);
        MPI_Comm_free(&c[i]);
    }

    if (rank == 0)
        printf(errs ? "FAILED\n" : "No Errors\n");
    MPI_Finalize();
    return errs != 0;
}
