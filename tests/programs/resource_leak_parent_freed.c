/* EXPECT: resource-leak  NP: 2  SAYS: MPI_Comm_split(comm=comm#3+(freed+since),|MPI_Comm_split(comm=MPI_COMM_WORLD, */
/*
 * Checks: the leak report of a communicator names the communicator it was
 * split from as it was then, after that one was freed and its handle
 * handed out again. Rank 0 and 1 duplicate MPI_COMM_WORLD (comm#3: #1 and
 * #2 are the checker's names of MPI_COMM_WORLD and MPI_COMM_SELF), split
 * the duplicate, free the duplicate, duplicate MPI_COMM_WORLD again (MPICH
 * hands out the freed handle at once) and free that one. The split one is
 * never freed, nor is a split of MPI_COMM_WORLD, whose parent keeps its
 * usual name.
 *
 * Why a warning: a communicator never freed is a leak (MPI_Finalize
 * reclaims it). Why it matters here: the report named the creating call's
 * arguments as they were at report time: "0x... (unknown communicator)"
 * once the parent was freed, and the newer communicator (comm#5) once its
 * handle was reused, which pointed the reader at the wrong object.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Comm dup, part, again, world_part;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(dup, 0, 0, &part);       /* BUG: never freed */
    MPI_Comm_free(&dup);
    MPI_Comm_dup(MPI_COMM_WORLD, &again);
    MPI_Comm_free(&again);
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &world_part);     /* BUG: never freed */
    MPI_Finalize();
    return 0;
}
