/* EXPECT: OK  NP: 2  FLAVOR: mpich */
/*
 * Checks: a program that uses only the MPI-4.0 sessions model (sec. 11.3) and
 * never calls MPI_Init or MPI_Finalize; no finding expected (call-order must
 * not fire, docs/checks.md: "A program that uses the MPI-4.0 sessions model
 * (MPI_Session_init) is not checked for call order"), and the run must not be
 * treated as a failure.
 */
#include <mpi.h>
#include <stdio.h>

int main(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm c;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm_create_from_group(g, "org.mpicheck.sessions_only", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    int rank, size, x = 1, y = 0;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
    int bad = y != size;
    if (bad)
        fprintf(stderr, "rank %d: allreduce gave %d, expected %d\n", rank, y, size);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Session_finalize(&s);
    return bad;
}
