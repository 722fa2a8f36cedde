/* The C half of tests/fortran.sh's mixed program: called from Fortran with
 * a Fortran communicator handle; receives as MPI_INT what Fortran sent as
 * MPI_INTEGER (the same type when INTEGER is int: no finding), and leaks
 * a communicator of its own. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void c_half(MPI_Fint fcomm, int expect);

void c_half(MPI_Fint fcomm, int expect)
{
    MPI_Comm comm = MPI_Comm_f2c(fcomm), mine;
    int rank, size, got = -1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Recv(&got, 1, MPI_INT, (rank - 1 + size) % size, 4, comm, MPI_STATUS_IGNORE);
    if (got != expect) {
        fprintf(stderr, "TEST FAILED: got %d, expected %d\n", got, expect);
        exit(3);
    }
    MPI_Comm_dup(comm, &mine);                               /* C-LEAK */
}
