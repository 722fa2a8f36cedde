/* EXPECT: OK  NP: 2  TIMEOUT: 0.25 */
/*
 * Checks: both ranks start an MPI_Iallreduce of 32 MiB of doubles and wait
 * for it in MPI_Wait, twice: with MPI_COMM_WORLD's errors fatal (the
 * checker then holds the call until its handshake ended and starts it
 * itself, giving the program a request of its own) and with
 * MPI_ERRORS_RETURN (MPI's request goes to the program). Rank 1's waits
 * take 2 s each (--timeout is 0.25 s, --hang-timeout 1.5 s).
 *
 * Why it is correct: every member started the collective (its handshake
 * found them all in the same call), so MPI completes it without another
 * call of any member, however long it moves data. MPI_Wait on a
 * nonblocking collective of 1 GiB at 2 ranks (4 s here, either MPI) got
 * a false `hang`. A wait for a nonblocking collective whose handshake was
 * clean now counts its thread's processor time as progress, for 1 s plus
 * 1 s a 16 MiB the call moves (the same credit as a blocking one:
 * hang_ok_slow_collective.c). No finding expected.
 *
 * How: the program defines PMPI_Iallreduce, to learn MPI's request for
 * its reduction, and PMPI_Test (how the checker tests a call it started
 * itself) and PMPI_Request_get_status (how its wait loop asks MPI about
 * the program's request), which on rank 1 compute and answer "not yet"
 * about that request for 2 s (MPI reducing) before MPI answers.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define COUNT (4 * 1024 * 1024)
typedef int (*get_status_fn)(MPI_Request, int *, MPI_Status *);
typedef int (*test_fn)(MPI_Request *, int *, MPI_Status *);
typedef int (*iallreduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request *);
static MPI_Request slow_req = MPI_REQUEST_NULL;     /* MPI's request of the program's reduction */
static double slow_until;
static int slow_rank, not_yet;  /* answers held back: the test is void without them */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* MPI's own reduction of the program's data (the checker's handshakes
 * reduce 64-bit integers): its request is the one to hold back. */
int PMPI_Iallreduce(const void *sb, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                    MPI_Request *req)
{
    iallreduce_fn real = (iallreduce_fn)dlsym(RTLD_NEXT, "PMPI_Iallreduce");
    int rc = real ? real(sb, rb, count, t, op, comm, req) : MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS && slow_rank && count == COUNT && t == MPI_DOUBLE) {
        slow_req = *req;
        slow_until = now() + 2.0;
    }
    return rc;
}

static int hold_back(MPI_Request req, int *flag)
{
    if (req == MPI_REQUEST_NULL || req != slow_req || now() >= slow_until)
        return 0;
    volatile unsigned long spin = 0;
    for (int i = 0; i < 200000; i++)
        spin++;
    not_yet++;
    *flag = 0;
    return 1;
}

int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status)
{
    if (hold_back(req, flag))
        return MPI_SUCCESS;
    get_status_fn real = (get_status_fn)dlsym(RTLD_NEXT, "PMPI_Request_get_status");
    return real ? real(req, flag, status) : MPI_ERR_INTERN;
}

int PMPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    if (hold_back(*req, flag))
        return MPI_SUCCESS;
    test_fn real = (test_fn)dlsym(RTLD_NEXT, "PMPI_Test");
    return real ? real(req, flag, status) : MPI_ERR_INTERN;
}

/* One MPI_Iallreduce and its MPI_Wait, rank 1's wait slowed for 2 s. */
static void reduce_slowly(int rank, const double *a, double *b, const char *how)
{
    MPI_Request r;
    not_yet = 0;
    slow_rank = rank == 1;
    MPI_Iallreduce(a, b, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    slow_rank = 0;
    slow_req = MPI_REQUEST_NULL;
    if (b[1] != 2.0 || b[COUNT - 1] != 2.0 * (COUNT - 1))
        printf("TEST FAILED: rank %d got %g ... %g\n", rank, b[1], b[COUNT - 1]);
    if (rank == 1 && not_yet == 0)
        printf("TEST FAILED: the wait (%s) was never held back: the test did not slow it\n", how);
}

int main(int argc, char **argv)
{
    int rank;
    double *a = malloc(COUNT * sizeof *a), *b = malloc(COUNT * sizeof *b);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < COUNT; i++)
        a[i] = i;
    reduce_slowly(rank, a, b, "errors fatal");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    reduce_slowly(rank, a, b, "MPI_ERRORS_RETURN");
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
