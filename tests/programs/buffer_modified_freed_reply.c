/* EXPECT: buffer-modified  NP: 2  RANKS: 0 */
/*
 * Checks: the example of seed 000 (the MPI_Request_free proposal): rank 0
 * sends 1 MiB with MPI_Isend, frees the request at once, and takes rank
 * 1's reply as proof that the send is done, so it reuses the buffer. But
 * rank 1 replies before it receives the data (it posts its receive only
 * after a barrier), so the send is still in flight when rank 0 writes.
 *
 * Why it is an error: the buffer of a send must not be modified until the
 * send completes (MPI-4.0 sec. 3.7.2), and a program that freed the
 * request cannot know when that is: a reply is no proof (with zero-copy
 * transfers MPI may read the buffer later still). The checker follows the
 * freed send to its real completion and compares the buffer's checksum
 * then; the report names the MPI_Isend and the MPI_Request_free. A
 * request-free-active warning comes with it.
 */
#include <mpi.h>
#include <stdlib.h>

#define N (1 << 20)

int main(int argc, char **argv)
{
    int rank, reply = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = calloc(N, 1);
    if (rank == 0) {
        MPI_Isend(buf, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        MPI_Recv(&reply, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        buf[N - 1] = 1;     /* "the send is done": it is not */
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Send(&reply, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(buf, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    free(buf);      /* not before: with MPICH's zero-copy transfers the receiver
                     * may still read it (rank 1 crashes in process_vm_readv) */
    return 0;
}
