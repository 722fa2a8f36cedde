/* EXPECT: buffer-overlap  NP: 3  RANKS: 0,1,2 */
/*
 * Checks: every rank starts an MPI_Iallgatherv of 2 ints from buf[1..2]
 * whose receive blocks sit at displacements 10, 20 and 0 (for ranks 0, 1
 * and 2) of buf, then waits.
 *
 * Why it is an error: the last receive block (rank 2's data, at buf[0..1])
 * shares buf[1] with this rank's send buffer: an OUT argument aliased with
 * an IN argument without MPI_IN_PLACE (MPI-4.0 sec. 2.3). Every block but
 * the last lies apart from the send buffer, so only a check of every block
 * finds it. (The pointers differ: MPICH's own check refuses only equal
 * ones.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int buf[30], counts[3] = {2, 2, 2}, displs[3] = {10, 20, 0};
    MPI_Request r;
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 30; i++)
        buf[i] = i;
    MPI_Iallgatherv(buf + 1, 2, MPI_INT, buf, counts, displs, MPI_INT, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
