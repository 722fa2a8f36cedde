/* EXPECT: collective-mismatch  NP: 4 */
/*
 * Checks: an MPI_Neighbor_alltoallv on a distributed graph whose in- and
 * out-neighbors differ (0 -> 1, 0 -> 2, 1 -> 2, 1 -> 3, 2 -> 3, 2 -> 0,
 * 3 -> 0) and whose counts differ from edge to edge, as they may: rank i
 * sends i + 1 ints along each of its out-edges. Every receiver expects
 * source + 1 ints on each in-edge, except rank 3, which expects 2 ints from
 * rank 2 (that sends 3).
 *
 * Why it is an error: the type signature of sendcounts[k] x sendtype that
 * process i gives for its k-th out-neighbor j must equal that of the
 * recvcounts[l] x recvtype j gives for the in-neighbor i (MPI-3.1 sec.
 * 7.6.2, MPI_Neighbor_alltoallv; MPI-4.0 sec. 8.6.2): the rule holds per
 * edge, and here one edge disagrees. MPI would report a truncation or
 * write past the receive block; the checker compares every edge with an
 * exchange along the topology itself, before the real call, names the
 * rank and the edge, and ends the job. The counts that differ between
 * members, and between a rank's in- and out-edges, are all correct and
 * must not be reported.
 */
#include <mpi.h>

/* MPI_UNWEIGHTED is a small non-NULL pointer constant: gcc's array-bound
 * warnings on it are noise. */
#pragma GCC diagnostic ignored "-Wstringop-overread"

int main(int argc, char **argv)
{
    static const int outs[4][2] = {{1, 2}, {2, 3}, {3, 0}, {0, -1}};
    static const int outdegs[4] = {2, 2, 2, 1};
    static const int ins[4][2] = {{3, 2}, {0, -1}, {1, 0}, {2, 1}};
    static const int indegs[4] = {2, 1, 2, 2};
    int rank, send[8], recv[16] = {0};
    int sc[2], sd[2], rc[2], rd[2];
    MPI_Comm dg;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indegs[rank], ins[rank], MPI_UNWEIGHTED,
                                   outdegs[rank], outs[rank], MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
    for (int i = 0; i < 8; i++)
        send[i] = rank;
    for (int k = 0; k < outdegs[rank]; k++) {
        sc[k] = rank + 1;
        sd[k] = k * (rank + 1);
    }
    for (int k = 0, at = 0; k < indegs[rank]; k++) {
        rc[k] = ins[rank][k] + 1;
        if (rank == 3 && ins[rank][k] == 2)
            rc[k] = 2;                      /* rank 2 sends 3 */
        rd[k] = at;
        at += rc[k];
    }
    MPI_Neighbor_alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, dg);
    MPI_Comm_free(&dg);
    MPI_Finalize();
    return 0;
}
