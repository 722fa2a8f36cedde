/* EXPECT: potential-deadlock  NP: 2 */
/*
 * Checks: MPI_Isend immediately followed by MPI_Wait, before the matching
 * receive is posted, on both ranks (the unsafe exchange written with
 * nonblocking calls).
 *
 * Why it is a potential deadlock: MPI_Isend + MPI_Wait is MPI_Send (MPI-3.1
 * sec. 3.7.3); a standard-mode send may complete only once the matching
 * receive is posted (sec. 3.4), and here each rank posts its receive only
 * after its own MPI_Wait returned. The program finishes only because the MPI
 * library buffers the small message; with a larger one, or another library,
 * it hangs. Strict mode must report it (warning), and then let it finish.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, out, in = -1;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    out = rank;
    if (rank < 2) {
        MPI_Isend(&out, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* BUG: waits before the receive below is posted */
        MPI_Recv(&in, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return in == 1 - rank ? 0 : 1;
}
