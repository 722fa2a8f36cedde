/* EXPECT: type-mismatch  NP: 2 */
/*
 * Checks: derived datatypes whose signatures differ while their sizes agree.
 * Rank 0 sends one vector type of 4 doubles (blocklength 1, stride 2: every
 * other element of a double array), 32 bytes. Rank 1 receives it as one
 * contiguous type of 8 MPI_INT, also 32 bytes.
 *
 * Why it is an error: a derived type matches by its type signature, the
 * sequence of basic types, not by its handle, layout or size (MPI-3.1 sec.
 * 4.1.11 and 3.3.1): {double x4} against {int x8}. MPI copies the bytes and
 * reports nothing. Run plainly, the program completes silently.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, in[8];
    double out[8];
    MPI_Datatype vec, ints;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 8; i++)
        out[i] = i + 0.5;

    if (rank == 0) {
        MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &vec);
        MPI_Type_commit(&vec);
        MPI_Send(out, 1, vec, 1, 9, MPI_COMM_WORLD);
        MPI_Type_free(&vec);
    } else if (rank == 1) {
        MPI_Type_contiguous(8, MPI_INT, &ints);
        MPI_Type_commit(&ints);
        /* BUG: 4 doubles received as 8 ints */
        MPI_Recv(in, 1, ints, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Type_free(&ints);
    }

    MPI_Finalize();
    return 0;
}
