/* EXPECT: OK  NP: 4  FLAVOR: openmpi  SKIPPED: unchecked-communicator */
/*
 * Checks: MPI_Comm_accept / MPI_Comm_connect between two halves of one job,
 * used correctly: {0, 1} accept on a port world rank 0 opened (root 0 at
 * both), {2, 3} connect to it with root 1 at both (a root other than rank
 * 0); the port name travels in a message and is significant only at the
 * roots. A message crosses the new intercommunicator, which is then
 * disconnected. No finding; the checker makes no private copy of such an
 * intercommunicator (docs/checks.md), so the run counts it as unchecked.
 * (Open MPI only: MPI_Open_port fails plainly under this MPICH.)
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, v = -1;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm half, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int acc = rank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, acc, rank, &half);
    if (rank == 0) {
        MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 3, 0, MPI_COMM_WORLD);
    } else if (rank == 3) {
        MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (acc)
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
    else
        MPI_Comm_connect(port, MPI_INFO_NULL, 1, half, &inter);
    if (rank == 1) {
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 0, 7, inter);
    } else if (rank == 2) {
        MPI_Recv(&v, 1, MPI_INT, 1, 7, inter, MPI_STATUS_IGNORE);
        if (v != 42)
            fprintf(stderr, "TEST FAILED: rank 2 got %d\n", v);
    }
    MPI_Comm_disconnect(&inter);
    if (rank == 0)
        MPI_Close_port(port);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
