/* EXPECT: collective-mismatch  NP: 3 */
/*
 * Checks: collective_mismatch_op.c in the 41st collective of
 * MPI_COMM_WORLD, when the checker folds small MPI_Allreduce calls into
 * their handshakes (src/coll/hs_p2p.c): rank 1 gives MPI_MAX and the others
 * MPI_SUM. Every member's data rode along, but the verdict is not clean, so
 * the checker must report and make the real call as before (the sizes
 * agree: MPI goes on), and the program reaches MPI_Finalize in step (the
 * MPI_Barrier after it). The 40 calls before it must give right results.
 *
 * Why it is an error: all members must give the same operation (MPI-4.0
 * sec. 6.9.1).
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, in, out = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 40; i++) {
        in = rank + i;
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (out != size * i + size * (size - 1) / 2) {
            fprintf(stderr, "wrong sum %d in round %d\n", out, i);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    in = 1;
    MPI_Allreduce(&in, &out, 1, MPI_INT, rank == 1 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
