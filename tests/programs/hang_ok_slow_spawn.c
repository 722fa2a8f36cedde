/* EXPECT: OK  NP: 2  TIMEOUT: 1  FLAVOR: openmpi */
/*
 * Checks: both ranks call MPI_Comm_spawn for one child, which computes
 * (sleeps) for longer than --hang-timeout (6 s) before its MPI_Init; the
 * parents wait inside MPI_Comm_spawn meanwhile. Then parent 0 and the
 * child exchange a message.
 *
 * Why it is correct: a spawn whose processes are still starting moves; the
 * hang watch leaves parents inside MPI_Comm_spawn alone while the
 * children's job is not all there. No finding expected.
 * Open MPI only: MPI_Comm_spawn fails under this MPICH 4.0.2 (ch4:ucx,
 * Hydra) even without mpicheck.
 */
#include <mpi.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int child = argc > 1 && strcmp(argv[1], "child") == 0;
    if (child)
        sleep(8);
    MPI_Init(&argc, &argv);
    MPI_Comm inter;
    int rank, x = 5;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!child) {
        char *args[] = {"child", NULL};
        MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
        if (rank == 0)
            MPI_Send(&x, 1, MPI_INT, 0, 0, inter);
    } else {
        MPI_Comm_get_parent(&inter);
        MPI_Recv(&x, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
    }
    MPI_Comm_disconnect(&inter);
    MPI_Finalize();
    return 0;
}
