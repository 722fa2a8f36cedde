/* EXPECT: OK  NP: 2  TIMEOUT: 1 */
/*
 * Checks: after MPI_Finalize rank 1 computes for longer than
 * --hang-timeout (6 s) before it exits.
 *
 * Why it is correct: a program may go on without MPI after MPI_Finalize;
 * a process that uses the processor (or reads or writes) is working, not
 * stuck, and the job is not ended. No finding expected.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    if (rank == 1) {
        volatile double x = 0;
        time_t end = time(NULL) + 8;
        while (time(NULL) < end)
            for (int i = 0; i < 1000000; i++)
                x += i * 0.5;
        if (x < 0)
            printf("%f\n", x);
    }
    return 0;
}
