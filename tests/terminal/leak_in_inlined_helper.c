/* A datatype leaked in a helper the compiler inlines into main (tests/terminal.sh
 * builds it with -O2; always_inline inlines it at any level): the finding's
 * stack shows the helper at its line, then main at the helper's call. */
#include <mpi.h>

static inline __attribute__((always_inline)) void make_type(MPI_Datatype *t)
{
    MPI_Type_contiguous(2, MPI_INT, t);
}

int main(int argc, char **argv)
{
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    make_type(&t);
    MPI_Type_commit(&t);
    MPI_Finalize();
    return 0;
}
