/* EXPECT: invalid-argument  NP: 1  FLAVOR: openmpi */
/*
 * Checks: a finding made in a process started by MPI_Comm_spawn reaches the
 * job report. The spawned child's MPI_COMM_WORLD rank (0) repeats its
 * parent's, so each spawned process writes its own report part; before,
 * parent and child appended to one file and could interleave long lines.
 * The child sends with a negative count (MPI-4.0 sec. 3.2.2: count is a
 * non-negative integer); errors are returned, the program goes on.
 * Open MPI only: MPI_Comm_spawn fails under this MPICH even without mpicheck.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) {
        int errcode, v = -1;
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, &errcode);
        MPI_Recv(&v, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
        MPI_Comm_disconnect(&inter);
    } else {
        int v = 7;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Send(&v, -1, MPI_INT, 0, 1, MPI_COMM_WORLD);  /* the bug, in the child */
        MPI_Send(&v, 1, MPI_INT, 0, 0, parent);
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
