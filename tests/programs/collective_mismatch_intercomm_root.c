/* EXPECT: collective-mismatch  NP: 4 */
/*
 * Checks: an intercommunicator between {0, 1} and {2, 3} (MPI_Comm_split +
 * MPI_Intercomm_create); an MPI_Bcast from rank 0 of the first group, where
 * rank 0 gives MPI_ROOT, rank 1 MPI_PROC_NULL, rank 2 names the root as 0
 * but rank 3 names it as 1.
 *
 * Why it is an error: every member of the receiving group must give the
 * root's rank in the other group (MPI-3.1 sec. 5.2.2, 5.4). Rank 3 waits
 * for a broadcast from a rank that does not send one.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[2] = {0}, root;
    MPI_Comm half, inter;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int color = rank < 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 2 : 0, 99, &inter);
    if (rank == 0) root = MPI_ROOT;
    else if (rank == 1) root = MPI_PROC_NULL;
    else root = rank == 3 ? 1 : 0;
    MPI_Bcast(buf, 2, MPI_INT, root, inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
