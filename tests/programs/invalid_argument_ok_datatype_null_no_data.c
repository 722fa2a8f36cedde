/* EXPECT: OK  NP: 2  FLAVOR: mpich */
/*
 * Checks: MPI_DATATYPE_NULL with a count of 0 in point-to-point calls
 * (MPI_Send, MPI_Recv, MPI_Isend, MPI_Irecv, MPI_Sendrecv): a message that
 * carries no data, only its envelope (the shape
 * of MPICH's part/nonblocking_pready, which synchronizes two ranks with
 * MPI_Send(NULL, 0, MPI_DATATYPE_NULL, ...)).
 *
 * Why it is not reported: with no data there is no type to be wrong. The
 * standard does not say whether MPI_DATATYPE_NULL is allowed there; MPICH
 * accepts it (pmodels/mpich#4659), Open MPI 4.1 refuses it with
 * MPI_ERR_TYPE (so this program runs with MPICH only). A check that cannot
 * be sure does not call it an error. invalid_argument_datatype_null.c,
 * where the count is not 0, is reported, and so is MPI_DATATYPE_NULL in a
 * collective (MPICH 4.0's MPI_Bcast fails an internal assertion on it).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Request r[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    if (rank == 0) {
        MPI_Send(NULL, 0, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_DATATYPE_NULL, peer, 1, MPI_COMM_WORLD);
    }
    MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, peer, 2, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(NULL, 0, MPI_DATATYPE_NULL, peer, 2, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, st);
    MPI_Sendrecv(NULL, 0, MPI_DATATYPE_NULL, peer, 3, NULL, 0, MPI_DATATYPE_NULL, peer, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
