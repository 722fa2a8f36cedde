/* EXPECT: collective-mismatch  NP: 2  FLAVOR: openmpi */
/*
 * Checks: MPI_Comm_spawn over MPI_COMM_WORLD where world rank 0 passes root
 * 0 and world rank 1 root 1.
 *
 * Why it is an error: MPI_Comm_spawn is collective over comm, and every
 * member must name the same root, whose command, argv and maxprocs count
 * (MPI-4.0 sec. 11.8.2); MPI would wait for two spawns. The handshake on
 * comm compares the root before the call, and the job ends before anything
 * is spawned. (Open MPI only: MPI_Comm_spawn fails plainly under this
 * MPICH, ok_spawn.c.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, errcodes[1];
    MPI_Comm parent, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, rank, MPI_COMM_WORLD, &inter, errcodes);
        MPI_Comm_disconnect(&inter);
    } else {
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
