/*
 * fortran.h - what the generated Fortran entry points (wrappers/mc_fortran.c,
 * made by wrappers/gen_fortran.py) need beyond the C wrappers: the Fortran
 * sentinels (MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS_IGNORE, ... are addresses
 * of Fortran variables, not the C constants), blank-padded strings, and the
 * MPI library's own entry point behind ours.
 *
 * Two conventions: MC_F_LEGACY for mpif.h and the `mpi` module (and Open
 * MPI's ompi_*_f functions that its mpi_f08 module calls with the same
 * INTEGER handles), MC_F_F08 for MPICH's mpi_f08 entry points, whose
 * MPI_STATUS_IGNORE is MPI_F08_STATUS_IGNORE and whose ierror is OPTIONAL.
 */
#ifndef MPICHECK_FORTRAN_H
#define MPICHECK_FORTRAN_H

#include <stddef.h>
#include <mpi.h>

enum { MC_F_LEGACY = 0, MC_F_F08 = 1 };

/* A buffer argument as C sees it: Fortran's MPI_IN_PLACE and MPI_BOTTOM
 * become the C constants; any other address is itself. */
void *mc_f_buf(void *p);
/* Fortran's MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY as the C constants. */
int *mc_f_weights(void *p);
/* Whether p is MPI_STATUS_IGNORE (MPI_STATUSES_IGNORE) of convention conv. */
int mc_f_status_ignored(int conv, const void *p);
int mc_f_statuses_ignored(int conv, const void *p);
/* MPI_STATUSES_IGNORE, out of the compiler's sight (MPICH's is the
 * address 1, which GCC takes for an array of size 0). */
MPI_Status *mc_f_statuses_ignore(void);
/* Whether the library's binding of convention conv returns the indices of
 * MPI_Waitany, MPI_Testany, MPI_Waitsome and MPI_Testsome from 1, as the
 * standard says. MPICH before 4.1 returns them from 0 in mpi_f08 (MPICH
 * issue 6270); the entry points return what the library would. */
int mc_f_index_from_1(int conv);
/* Conversions use buffers on the stack up to these sizes, the heap above. */
#define MC_F_STACK 16
#define MC_F_STRING_STACK 16384

/* A CHARACTER(LEN=len) argument as a C string: leading and trailing
 * blanks dropped (as both libraries' bindings do), NUL added; in buf when it fits, else malloc'ed (NULL when out of
 * memory). */
char *mc_f_str_in(const char *s, int len, char *buf, size_t size);
/* A buffer for a C string output of CHARACTER(LEN=len) argument f: room
 * for len characters or MPI's longest name (8192), and the NUL; buf when it
 * fits, else malloc'ed (NULL when out of memory). It starts as f's
 * characters, so copying it back (mc_f_str_out) leaves f as it was when MPI
 * wrote nothing (MPI_Info_get of a missing key). */
char *mc_f_str_buf(const char *f, int len, char *buf, size_t size);
/* Copies C string src into CHARACTER(LEN=len) dst, blank-padded. */
void mc_f_str_out(char *dst, int len, const char *src);
/* The MPI library's definition of Fortran entry point sym (the next one
 * after this library). Exits with a message naming sym when there is none:
 * only a program that calls sym gets here, so its MPI library has it. */
void *mc_f_next(const char *sym);
/* How many processes MPI_Alltoallw's arrays have an entry for: comm's
 * size, or its remote group's for an intercommunicator (0 if unknown). */
int mc_f_comm_span(MPI_Comm comm);
/* An array of n C handles (n < 0: none), from the heap; NULL when n <= 0 or
 * out of memory (then err is set). */
void *mc_f_array(int n, size_t size, int *err);

#endif
