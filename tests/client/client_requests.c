/*
 * The client requests of include/mpicheck.h, built against the installed
 * header and library with pkg-config (scripts/check, mc_check_client):
 * rank 0 modifies the buffer of an active send three times, once with the
 * checker switched off (MPICHECK_OFF), once inside MPI_Pcontrol(0) and (1),
 * once in phase "solver"; a datatype made inside
 * MPICHECK_LEAKS_INTENDED_BEGIN/END is kept on purpose, one made outside is
 * leaked. Expected: one buffer-modified (with "phase: solver"), two
 * suppressed, one resource-leak. Prints "running=N" first.
 */
#include <mpi.h>
#include <stdio.h>
#include <mpicheck.h>

static void modify_active_send(int rank, int line)
{
    int buf[4] = {1, 2, 3, 4};
    MPI_Request r;
    if (rank == 0) {
        MPI_Isend(buf, 4, MPI_INT, 1, line, MPI_COMM_WORLD, &r);
        buf[0] = line;     /* BUG (on purpose): the send is still active */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(buf, 4, MPI_INT, 0, line, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Datatype kept, leaked;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("running=%d\n", MPICHECK_RUNNING());
    MPICHECK_OFF();
    modify_active_send(rank, 1);
    MPICHECK_ON();
    MPI_Pcontrol(0);
    modify_active_send(rank, 2);
    MPI_Pcontrol(1);
    MPICHECK_PHASE("solver");
    modify_active_send(rank, 3);
    MPICHECK_PHASE("");
    MPICHECK_LEAKS_INTENDED_BEGIN();
    MPI_Type_contiguous(2, MPI_INT, &kept);
    MPICHECK_LEAKS_INTENDED_END();
    MPI_Type_contiguous(3, MPI_INT, &leaked);
    MPICHECK_FLUSH();
    MPI_Finalize();
    return 0;
}
