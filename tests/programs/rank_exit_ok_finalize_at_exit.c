/* EXPECT: OK  NP: 2 */
/*
 * Checks: MPI_Finalize called from an exit handler the program registered
 * before MPI_Init, after main has returned (BAGEL's pattern: a C++ global
 * whose destructor calls MPI_Finalize; such destructors are exit handlers
 * registered when the global is built, before main runs).
 *
 * Why it is correct: "Each process must call MPI_FINALIZE before it exits"
 * (MPI-4.0 sec. 11.2.2), and each one does, from the handler; both MPIs
 * end the job cleanly. The checker's own exit check ran before the
 * handlers registered earlier than MPI_Init and reported every rank as
 * ended without MPI_Finalize (an error, exit status 3).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void finalize_at_exit(void)
{
    MPI_Finalize();
}

int main(int argc, char **argv)
{
    int rank;
    atexit(finalize_at_exit);   /* registered before MPI_Init */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("done\n");
    return 0;
}
