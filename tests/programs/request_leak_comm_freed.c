/* EXPECT: request-leak  NP: 2  SAYS: comm=comm#3+(freed+since) */
/*
 * Checks: the report of a request leaked at MPI_Finalize names the
 * communicator it was started on as it was, after the program freed that
 * communicator and MPI handed its handle to a newer one. Rank 1 starts an
 * MPI_Isend of 1 MiB on a split of MPI_COMM_WORLD (comm#3: #1 and #2 are
 * MPI_COMM_WORLD and MPI_COMM_SELF), tests it once (it cannot be done: its
 * receive is not posted yet), and never completes it; rank 0 receives the
 * message after a barrier. Both free the split, then duplicate
 * MPI_COMM_WORLD (MPICH hands out the freed handle at once) and keep the
 * duplicate.
 *
 * Why a warning: a request never completed is a leak, even when its data
 * went (MPI-4.0 sec. 11.2.2: pending operations must be completed before
 * MPI_Finalize); BLACS's BI_Asend under CP2K leaves one so. Why it
 * matters here: the request's entry keeps no ids (it is made on the hot
 * path), so the report named its communicator as it was at MPI_Finalize:
 * "0x... (unknown communicator)" once freed, and the newer communicator
 * (comm#4) where its handle was reused.
 */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, n = 1 << 20, flag = 0;
    char *out = calloc((size_t)n, 1), *in = malloc((size_t)n);
    MPI_Comm part, again;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &part);
    if (rank == 1) {
        MPI_Isend(out, n, MPI_CHAR, 0, 5, part, &req);  /* BUG: never completed */
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Recv(in, n, MPI_CHAR, 1, 5, part, MPI_STATUS_IGNORE);
    MPI_Barrier(part);
    MPI_Comm_free(&part);
    MPI_Comm_dup(MPI_COMM_WORLD, &again);   /* BUG: never freed (the handle reused) */
    MPI_Barrier(again);
    MPI_Finalize();
    free(out);
    free(in);
    return 0;
}
