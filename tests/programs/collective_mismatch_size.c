/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: an MPI_Bcast where the root sends 8 ints and rank 2 expects 4
 * (its buffer holds 8, so nothing is overwritten if MPI ran it).
 *
 * Why it is an error: "the amount of data sent must be equal to the amount
 * received, pairwise between each process and the root" (MPI-3.1 sec. 5.4);
 * collectives have no short receives. MPI may fail with MPI_ERR_TRUNCATE or
 * corrupt memory; the checker reports first and ends the job.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, buf[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(buf, rank == 2 ? 4 : 8, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
