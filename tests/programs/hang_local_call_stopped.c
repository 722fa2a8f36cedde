/* EXPECT: hang  NP: 2  TIMEOUT: 1  RANKS: 0,1  SAYS: MPI_Pack */
/*
 * Checks: rank 0 stops inside MPI_Pack without using the processor (as
 * an MPI blocked on a lock would) while rank 1 waits in MPI_Recv for the
 * message rank 0 would send afterwards.
 *
 * Why it is an error: the job never ends. MPI_Pack is a local procedure,
 * and the hang watch counts the processor time of a thread inside one as
 * progress (hang_ok_long_local_call.c): a thread that uses none moves no
 * more than one blocked in MPI_Recv. The watch reports both calls after
 * --hang-timeout (6 x --timeout) and ends the job. Run plainly, the
 * program hangs.
 *
 * How: the program defines PMPI_Pack, which the checker's MPI_Pack calls:
 * a stand-in for an MPI's local call that blocks, on any MPI.
 */
#include <mpi.h>
#include <unistd.h>

int PMPI_Pack(const void *in, int n, MPI_Datatype t, void *out, int size, int *pos, MPI_Comm c)
{
    (void)in, (void)n, (void)t, (void)out, (void)size, (void)pos, (void)c;
    for (;;)
        sleep(1);
}

int main(int argc, char **argv)
{
    int rank, x = 7, pos = 0;
    char packed[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Pack(&x, 1, MPI_INT, packed, sizeof packed, &pos, MPI_COMM_WORLD);
        MPI_Send(packed, pos, MPI_PACKED, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(packed, sizeof packed, MPI_PACKED, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
