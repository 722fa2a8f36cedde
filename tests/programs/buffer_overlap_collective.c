/* EXPECT: buffer-overlap  NP: 3  RANKS: 0,1,2 */
/*
 * Checks: every rank calls MPI_Alltoall with one int per rank, sending
 * from a[0..2] and receiving into a[2..4] of the same array.
 *
 * Why it is an error: an OUT argument may not be aliased with any other
 * argument (MPI-4.0 sec. 2.3), and a collective says "same memory" only
 * with MPI_IN_PLACE. a[2] is the int this rank sends to rank 2 and the int
 * it receives from rank 0: whether rank 2 gets the old or the received
 * value depends on the order MPI copies in. Only the whole parts show it:
 * the first blocks (a[0] and a[2]) do not overlap.
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int a[5];
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 5; i++)
        a[i] = i;
    MPI_Alltoall(a, 1, MPI_INT, a + 2, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
