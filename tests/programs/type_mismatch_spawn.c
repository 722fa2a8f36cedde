/* EXPECT: type-mismatch  NP: 1  FLAVOR: openmpi */
/*
 * Checks: messages between parents and the children they spawned are
 * checked like any others: the checker starts the children under itself
 * (src/inter/spawn.c), and the intercommunicator gets its shadow on both
 * sides. The parent sends 2 MPI_INT to its child, which receives 2
 * MPI_FLOAT.
 *
 * Why it is an error: the type signatures of a send and its receive must
 * match (MPI-4.0 sec. 3.3.1), across an intercommunicator to spawned
 * processes too (sec. 11.8.2: the intercommunicator is an ordinary one).
 * Open MPI only: MPI_Comm_spawn fails under this MPICH 4.0.2 (ch4:ucx,
 * Hydra) even without mpicheck.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        int iv[2] = {1, 2};
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
        MPI_Send(iv, 2, MPI_INT, 0, 5, inter);
        MPI_Comm_disconnect(&inter);
    } else {
        float fv[2];
        MPI_Recv(fv, 2, MPI_FLOAT, 0, 5, parent, MPI_STATUS_IGNORE);  /* the bug */
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
