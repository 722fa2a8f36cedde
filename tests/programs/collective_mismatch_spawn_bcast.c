/* EXPECT: collective-mismatch  NP: 2  FLAVOR: openmpi  TIMEOUT: 5 */
/*
 * Checks: collectives between parents and the children they spawned get
 * the collective handshake, parents and children in one report. The two
 * parents broadcast 4 ints to the two children (MPI_ROOT at rank 0,
 * MPI_PROC_NULL at rank 1); the children expect 2.
 *
 * Why it is an error: in a broadcast every receiver's type signature must
 * match the root's (MPI-4.0 sec. 6.4), across an intercommunicator to
 * spawned processes too; MPI may truncate or hang.
 * Open MPI only: MPI_Comm_spawn fails under this MPICH 4.0.2 (ch4:ucx,
 * Hydra) even without mpicheck.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter;
    int rank, v[4] = {1, 2, 3, 4};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
        MPI_Bcast(v, 4, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
        MPI_Comm_disconnect(&inter);
    } else {
        MPI_Bcast(v, 2, MPI_INT, 0, parent);   /* the bug: the root sends 4 */
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
