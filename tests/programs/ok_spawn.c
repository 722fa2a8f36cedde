/* EXPECT: OK  NP: 2  FLAVOR: openmpi */
/*
 * Checks: dynamic process creation (MPI-4.0 sec. 11.8): the parents spawn two
 * copies of this program, exchange a message over the intercommunicator and
 * disconnect; the children get it with MPI_Comm_get_parent (owned by the
 * library, sec. 11.8.2: it may be disconnected, and nothing needs freeing when
 * it is MPI_COMM_NULL); no finding expected, and the children's own
 * MPI_COMM_WORLD ranks 0..1 must not be confused with the parents'.
 * Open MPI only: MPI_Comm_spawn fails with "Error in spawn call" under this
 * MPICH 4.0.2 (ch4:ucx, Hydra) even without mpicheck.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter;
    int rank, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        int errcodes[2];
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errcodes);
        int v = 100 + rank, back = -1;
        MPI_Send(&v, 1, MPI_INT, rank, 1, inter);
        MPI_Recv(&back, 1, MPI_INT, rank, 2, inter, MPI_STATUS_IGNORE);
        bad = back != 200 + rank;
        MPI_Comm_disconnect(&inter);
    } else {
        int rs, v = -1;
        MPI_Comm_remote_size(parent, &rs);
        MPI_Recv(&v, 1, MPI_INT, rank, 1, parent, MPI_STATUS_IGNORE);
        bad = v != 100 + rank || rs != 2;
        v += 100;
        MPI_Send(&v, 1, MPI_INT, rank, 2, parent);
        /* a child-side leak-free object, created and freed */
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Comm_free(&d);
        MPI_Comm_disconnect(&parent);
    }
    if (bad)
        fprintf(stderr, "rank %d (%s): wrong value\n", rank, parent == MPI_COMM_NULL ? "parent" : "child");
    MPI_Finalize();
    return bad;
}
