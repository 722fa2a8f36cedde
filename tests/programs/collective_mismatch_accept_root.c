/* EXPECT: collective-mismatch  NP: 4  FLAVOR: openmpi */
/*
 * Checks: MPI_Comm_accept / MPI_Comm_connect between two halves of one job:
 * {0, 1} accept on a port world rank 0 opened, {2, 3} connect to it (the
 * port name travels in a message). On the accepting side world rank 0
 * passes root 0 and world rank 1 root 1.
 *
 * Why it is an error: MPI_Comm_accept is collective over comm and every
 * member must name the same root (MPI-4.0 sec. 11.9.2); the members would
 * wait for two different accepts. The handshake on comm compares the root
 * before the call. (Open MPI only: MPI_Open_port fails plainly under this
 * MPICH.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm half, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int acc = rank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, acc, rank, &half);
    if (rank == 0) {
        MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 2, 0, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (acc)
        MPI_Comm_accept(port, MPI_INFO_NULL, rank, half, &inter);
    else
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter);
    MPI_Comm_disconnect(&inter);
    if (rank == 0)
        MPI_Close_port(port);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
