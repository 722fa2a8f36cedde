/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: on a periodic ring (1-D Cartesian communicator of 3), ranks 0
 * and 1 start MPI_Ineighbor_allgather while rank 2 starts
 * MPI_Ineighbor_alltoall, 1 MPI_INT per neighbor everywhere, and all
 * complete their request with MPI_Wait.
 *
 * Why it is an error: nonblocking collectives must be called in the same
 * order and be the same operation on every member of the communicator
 * (MPI-3.1 sec. 5.12 and 7.7; MPI-4.0 sec. 6.12 and 8.7); a neighbor
 * allgather does not match a neighbor alltoall, even where the amounts
 * agree and MPI finishes without a word. The checker's handshake, started
 * in the call, finds it when it completes (at the latest when the
 * communicator is freed) and reports from one member, with the range of
 * operations the members called; it then ends the job. (For nonblocking
 * and persistent neighbor collectives only the operation is compared, not
 * the parts along each edge: docs/design.md.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, periods[1] = {1}, send[2], recv[2];
    MPI_Comm ring;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, periods, 0, &ring);
    send[0] = send[1] = rank;
    if (rank == 2)
        MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, ring, &req);
    else
        MPI_Ineighbor_allgather(send, 1, MPI_INT, recv, 1, MPI_INT, ring, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return 0;
}
