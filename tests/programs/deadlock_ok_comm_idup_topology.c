/* EXPECT: OK  NP: 4 */
/*
 * Checks: MPI_Comm_idup of a communicator with a Cartesian topology started
 * together with MPI_Ineighbor_allgather on that communicator, several
 * times before one MPI_Waitall; then every copy runs
 * a neighbor collective and is freed.
 *
 * Why it is correct: nonblocking collectives, MPI_Comm_idup among them,
 * may be outstanding together on one communicator as long as every member
 * starts them in the same order (MPI-3.1 sec. 5.12). The copy has the parent's
 * topology (sec. 7.4.1), so neighbor collectives work on it. The checker
 * runs neighbor handshakes on a twin of each topology communicator and
 * copies the parent's twin for an idup'ed one: its own neighbor exchanges
 * on the parent's twin must not start while that copy is running, or
 * Open MPI pairs the copy's rounds with different collectives on
 * different ranks.
 */
#include <mpi.h>
#include <stdio.h>

#define N 3

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm cart, c[N];
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
    int left, right;
    MPI_Cart_shift(cart, 0, 1, &left, &right);

    MPI_Request r[2 * N];
    int sendv[N], recvv[N][2];
    for (int i = 0; i < N; i++) {
        MPI_Comm_idup(cart, &c[i], &r[i]);
        sendv[i] = rank * 10 + i;
        MPI_Ineighbor_allgather(&sendv[i], 1, MPI_INT, recvv[i], 1, MPI_INT, cart, &r[N + i]);
    }
    MPI_Waitall(2 * N, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i++) {
        if (recvv[i][0] != left * 10 + i || recvv[i][1] != right * 10 + i)
            errs++;
        int b[2];
        MPI_Neighbor_allgather(&rank, 1, MPI_INT, b, 1, MPI_INT, c[i]);
        if (b[0] != left || b[1] != right)
            errs++;
        MPI_Comm_free(&c[i]);
    }
    MPI_Comm_free(&cart);
    if (errs)
        printf("rank %d: %d errors\n", rank, errs);
    if (rank == 0 && !errs)
        printf("No Errors\n");
    MPI_Finalize();
    return errs != 0;
}
