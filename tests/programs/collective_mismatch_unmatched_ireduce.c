/* EXPECT: collective-mismatch  NP: 3  TIMEOUT: 1  RANKS: 0,1,2  SAYS: rank+0+reached+MPI_Finalize+without+making+that+collective+call|ranks+1,+2+called+MPI_Ireduce */
/*
 * Checks: ranks 1 and 2 start MPI_Ireduce with root 0 on MPI_COMM_WORLD
 * and wait for it; rank 0, the root, never calls it. Then all three call
 * MPI_Finalize.
 *
 * Why it is an error: every member of a communicator must make each
 * collective call on it (MPI-4.0 sec. 6.14). Plainly the program ends
 * well with both MPIs: a non-root's part goes to the root and its request
 * completes without the root (MPI Bugs Initiative,
 * CallOrdering_Ireduce_none_nok.c and its Igather twin, which the checker
 * missed). The handshake of the call never ends, and once every rank is in
 * MPI_Finalize no member can still call it: the checker reports it there,
 * naming the ranks that called and the one that did not.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, val = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {
        MPI_Request req;
        MPI_Ireduce(&val, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
