/* EXPECT: buffer-overlap  NP: 2  RANKS: 1 */
/*
 * Checks: rank 1 posts MPI_Irecv into ints 0..9 of an array and, while it
 * is pending, a second MPI_Irecv into ints 5..14 (two receives into
 * shared bytes: not reported); then, with both pending, an MPI_Isend from
 * ints 10..14.
 *
 * Why it is an error: the second receive writes ints 10..14 while the send
 * may be reading them: the program's send accesses the buffer of an active
 * receive (MPI-4.0 sec. 3.7.2). The checker compares each new operation's
 * data bytes with those of the operations still active.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, a[15] = {0}, b[10] = {0}, c[5];
    MPI_Request r[3];
    MPI_Status st[3];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        MPI_Irecv(a, 10, MPI_INT, 0, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(a + 5, 10, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Isend(a + 10, 5, MPI_INT, 0, 2, MPI_COMM_WORLD, &r[2]);
        MPI_Waitall(3, r, st);
    } else if (rank == 0) {
        MPI_Send(b, 10, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(b, 10, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(c, 5, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
