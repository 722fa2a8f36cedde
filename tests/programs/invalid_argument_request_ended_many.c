/* EXPECT: invalid-argument  NP: 2  RANKS: 0 */
/*
 * Checks: the copy of an ended request's handle is still recognized after
 * hundreds of other requests ended around it. Rank 0 starts 300 receives
 * and 300 sends to itself at once (600 distinct live handles), completes
 * them in three rounds of MPI_Waitall, and then tests its copy of the
 * last send's handle with MPI_Test.
 *
 * Why it is an error: a request handle names the request only until the
 * request completes (MPI-4.0 sec. 3.7.3); the copy names a request MPI has
 * freed. The checker remembers the last 256 requests that ended; with 600
 * ending, its table of them wraps around, evicts and refills many times
 * (tracking/requests.c), and must still find the last one.
 */
#include <mpi.h>

#define N 300

int main(int argc, char **argv)
{
    int rank, flag = 0;
    static int in[N], out[N];
    static MPI_Request reqs[2 * N];
    MPI_Request copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < N; i++) {
            out[i] = i;
            MPI_Irecv(&in[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, &reqs[i]);
        }
        for (int i = 0; i < N; i++)
            MPI_Isend(&out[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, &reqs[N + i]);
        copy = reqs[2 * N - 1];
        MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE);
        MPI_Waitall(N / 2, reqs + N, MPI_STATUSES_IGNORE);
        MPI_Waitall(N / 2, reqs + N + N / 2, MPI_STATUSES_IGNORE);
        MPI_Test(&copy, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
