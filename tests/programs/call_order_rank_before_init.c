/* EXPECT: call-order  NP: 2 */
/*
 * Checks: MPI_Comm_rank called before MPI_Init.
 *
 * Why it is an error: apart from a short list of functions (MPI_Initialized,
 * MPI_Finalized, MPI_Get_version, MPI_Get_library_version, the MPI_T_ tool
 * interface; MPI-3.1 sec. 8.7, MPI-4.0 sec. 11.2) no MPI procedure may be
 * called before MPI_Init or MPI_Init_thread; MPI_COMM_WORLD does not exist yet.
 *
 * Both libraries abort the process on this call (their error handler for
 * "not initialized" is fatal whatever the program sets, and none can be set
 * yet). The checker reports before the real call, so the report holds the
 * finding anyway; the job then ends with the abort, it does not hang. Should a
 * library return instead, the program goes on correctly.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank = -1;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);   /* BUG: before MPI_Init */
    printf("MPI_Comm_rank before MPI_Init gave %d\n", rank);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
