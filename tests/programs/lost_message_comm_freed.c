/* EXPECT: lost-message  NP: 2  MODE: fast  ONLY: yes */
/*
 * Checks: a message no receive matched, left on a communicator that all its
 * members then free (OpenCoarrays' pattern: every image sends a status to
 * the others at its end and nobody receives it, then the library frees its
 * communicator). One lost-message finding, and nothing else.
 *
 * Why only that: a message never received is the lost-message warning, and
 * freeing a communicator with traffic left on it is allowed (MPI-4.0 sec.
 * 7.4.3: it is deallocated once nothing refers to it). The checker finds the
 * message after MPI has freed the program's communicator, and asked that
 * freed handle for its group to name the sender: MPICH answered with an
 * error (a false mpi-error), Open MPI crashed in MPI_Comm_group (a
 * rank-exit by signal 11). Fast mode, because in strict mode the send waits
 * for its receive and is, rightly, a potential deadlock as well.
 *
 * On one node rank 0's envelope reaches rank 1 before rank 0's part of the
 * barrier (one queue per pair of processes), so the free sees it.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Comm comm;
    int rank, status = 42;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        MPI_Send(&status, 1, MPI_INT, 1, 7, comm);     /* never received */
    MPI_Barrier(comm);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
