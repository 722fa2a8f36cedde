/* EXPECT: request-leak  NP: 2  SAYS: 2+requests+started+by+MPI_Irecv|1+of+them+cancelled+with+MPI_Cancel|must+still+be+completed  ONLY: yes */
/*
 * Checks: a request cancelled with MPI_Cancel and never completed is
 * reported as what it is. MPI_Cancel only marks a pending operation for
 * cancellation; the request must still be completed with MPI_Wait or
 * MPI_Test, or freed with MPI_Request_free (MPI-4.0 sec. 3.8.4). ABySS's
 * CommLayer leaves its last wildcard receive so: cancelled in the
 * destructor, never waited on. The report said "never waited on or tested
 * ... or cancel it", advice the program had followed.
 *
 * Each rank posts two receives from one call site that nothing ever
 * matches; it cancels the first and completes neither. One finding per
 * site, saying that 1 of the 2 was cancelled and that a cancelled request
 * must still be completed. (The correct ways: ok_completion_all.c cancels
 * and then waits; request_free_active_ok_lifecycle.c too.)
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int v[2];
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 2; i++)
        MPI_Irecv(&v[i], 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &r[i]);
    MPI_Cancel(&r[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
