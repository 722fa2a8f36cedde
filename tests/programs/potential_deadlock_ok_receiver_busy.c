/* EXPECT: OK  NP: 2  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: a strict send does not wait on a receiver that is busy outside
 * MPI (docs/design.md, "Strict mode without long stalls"). Rank 0
 * MPI_Send's one int to rank 1, then creates a file; rank 1 waits for that
 * file outside MPI, then receives.
 *
 * Why no finding: the checker sees MPI only. Rank 1 never waits in MPI for
 * rank 0 (it polls a file), so nothing MPI shows can be a deadlock, and
 * MPI buffers the small message, so the program completes plainly at once.
 * The dependency through the file is invisible to any MPI checker.
 *
 * How this fails when a strict send waits on a busy receiver: until this
 * version the send waited until the receive was posted, or for two
 * timeouts (here 2 x 600 s) before it gave up; every test run is killed
 * after 120 s, and rank 1 gives up after 100 s with TEST FAILED.
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, out = 11, in = -1, pid;
    char path[64];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);     /* a name unique to this run */
    snprintf(path, sizeof path, "/tmp/mpicheck-busy-%d", pid);
    if (rank == 0) {
        MPI_Send(&out, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
    } else if (rank == 1) {
        int waited = 0;
        while (access(path, F_OK) != 0 && waited < 100000) {  /* up to 100 s */
            usleep(1000);
            waited++;
        }
        if (waited >= 100000) {
            fprintf(stderr, "TEST FAILED: rank 0 did not get past MPI_Send in 100 s\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        unlink(path);
        MPI_Recv(&in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (in != 11) {
            fprintf(stderr, "TEST FAILED: rank 1 received %d\n", in);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Finalize();
    return 0;
}
