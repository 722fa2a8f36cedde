/* EXPECT: hang  NP: 2  TIMEOUT: 1  RANKS: 0 */
/*
 * Checks: rank 1 (as the launcher's environment says) never calls
 * MPI_Init: it sleeps. Rank 0 waits inside MPI_Init for it.
 *
 * Why it is an error: MPI_Init of a job's processes completes together
 * (both Open MPI and MPICH exchange their addresses there), so a process
 * that never calls it leaves the others in MPI_Init forever. The
 * launcher's hang watch sees rank 0 inside MPI_Init with no progress and
 * no board for rank 1, reports rank 0's call and names rank 1 as never
 * having called MPI_Init, and ends the job.
 */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

static int rank_from_env(void)
{
    const char *v = getenv("OMPI_COMM_WORLD_RANK");
    if (!v)
        v = getenv("PMI_RANK");
    return v ? atoi(v) : 0;
}

int main(int argc, char **argv)
{
    if (rank_from_env() == 1)
        sleep(600);     /* ended by the launcher long before */
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
