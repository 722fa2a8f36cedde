/* EXPECT: OK  NP: 2 */
/*
 * Checks: the checker puts no function named like a Fortran MPI binding
 * without its underscore (mpi_comm_size, MPI_COMM_SIZE) into the process's
 * global scope. It is preloaded, so its symbols come before every
 * library's: R's Rmpi defines C functions mpi_comm_size, mpi_send and 51
 * more, their addresses resolved to the checker's Fortran entry points,
 * and R crashed at Rmpi's first call (a C program linked with plain
 * Open MPI or MPICH has no such symbol: the Fortran bindings are in
 * libraries C programs do not load). gfortran, Intel's, flang, nvfortran
 * and Cray's compilers call mpi_comm_size_, which stays.
 *
 * The program looks the names up as the dynamic linker would resolve a
 * library's reference to them, and fails (exit status 1) if any is
 * defined.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    static const char *const names[] = {
        "mpi_comm_size", "mpi_comm_rank", "mpi_send", "mpi_recv", "mpi_bcast",
        "MPI_COMM_SIZE", "MPI_SEND", "MPI_BARRIER",
    };
    int bad = 0;
    MPI_Init(&argc, &argv);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (dlsym(RTLD_DEFAULT, names[i])) {
            fprintf(stderr, "%s is defined in the process's global scope\n", names[i]);
            bad = 1;
        }
    }
    MPI_Finalize();
    return bad;
}
