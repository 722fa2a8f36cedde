/* EXPECT: OK  NP: 2 */
/*
 * Checks: children the ranks fork after MPI_Init, which make no MPI call
 * and end with exit() or a return from main, are not ranks that ended
 * without MPI_Finalize; the ranks themselves finalize. OSU's
 * osu_latency_mp forks such helpers, and each was a false rank-exit
 * error.
 *
 * Why it is correct: MPI_Finalize is owed by the MPI processes (MPI-4.0
 * sec. 11.2.2); a forked child without exec is not one, and it makes no
 * MPI call.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 2; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (i == 0)
                exit(0);
            return 0;       /* a return from main in the child */
        }
        if (pid > 0)
            waitpid(pid, NULL, 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
