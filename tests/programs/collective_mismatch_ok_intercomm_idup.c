/* EXPECT: OK  NP: 4 */
/*
 * Checks: copies of an intercommunicator between {0, 1} and {2, 3} made
 * with MPI_Comm_idup, one after the other, each with an MPI_Ibarrier on
 * the parent started behind it (MPI-3.1 sec. 5.12: nonblocking
 * collectives, idups included, match in the order each process starts
 * them; two idups of one intercommunicator pending at once hang Open MPI
 * 4.1 itself in about one run in four); each copy
 * then carries an MPI_Allreduce and a message to the partner in the other
 * group, and is freed. Correct; no finding expected.
 * The checker copies the parent's handshake communicator for each, while
 * the program's idups run, and compares the collectives on the copies.
 */
#include <mpi.h>
#include <stdio.h>

#define N 4

int main(int argc, char **argv)
{
    int wrank, lrank;
    MPI_Comm local, inter, copy[N];
    MPI_Request req[2];
    int one = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int inA = wrank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Comm_rank(local, &lrank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, inA ? 2 : 0, 4, &inter);
    for (int i = 0; i < N; i++) {
        MPI_Comm_idup(inter, &copy[i], &req[0]);
        MPI_Ibarrier(inter, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
    for (int i = 0; i < N; i++) {
        int v = lrank, got = -1, sum = 0;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, copy[i]);
        MPI_Sendrecv(&v, 1, MPI_INT, lrank, 9, &got, 1, MPI_INT, lrank, 9, copy[i], MPI_STATUS_IGNORE);
        if (sum != 2 || got != lrank)
            fprintf(stderr, "TEST FAILED: rank %d copy %d sum %d got %d\n", wrank, i, sum, got);
    }
    for (int i = 0; i < N; i++)
        MPI_Comm_free(&copy[i]);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
