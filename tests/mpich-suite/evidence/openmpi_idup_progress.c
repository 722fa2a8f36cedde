/*
 * Evidence, not a test of the checker (docs/design.md, "The order of the
 * checker's collectives on a shadow being copied"): without any tool, Open
 * MPI 4.1.4 hangs on this correct program. Every rank starts
 * MPI_Comm_idup and then MPI_Iallreduce on MPI_COMM_WORLD, in the same
 * order (MPI-3.1 sec. 5.12); rank 0 alone tests an unrelated request in
 * between. That test runs Open MPI's progress engine, which starts the
 * idup's context-id rounds on rank 0 before its MPI_Iallreduce and on the
 * other ranks after it, so the rounds pair with the wrong collectives.
 * Measured on 2026-11-25, 4 processes, --oversubscribe: 4 of 5 runs hung, then 3 of 5 in a second series
 * (the other ranks stay in MPI_Waitall); without rank 0's tests, 5 of 5
 * passed. A checker that tests its own requests inside the application's
 * nonblocking calls causes the same hang, which is why mpicheck does not.
 *
 *   mpicc.openmpi -o idup_progress openmpi_idup_progress.c
 *   timeout 15 mpirun.openmpi --oversubscribe -np 4 ./idup_progress
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, in = 1, out = 0, flag, buf = 0;
    MPI_Comm c;
    MPI_Request r[2], other;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_SELF, &other);
    MPI_Comm_idup(MPI_COMM_WORLD, &c, &r[0]);
    if (rank == 0)
        for (int k = 0; k < 50; k++)
            MPI_Test(&other, &flag, MPI_STATUS_IGNORE);
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Comm_free(&c);
    MPI_Send(&in, 1, MPI_INT, 0, 77, MPI_COMM_SELF);
    MPI_Wait(&other, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
