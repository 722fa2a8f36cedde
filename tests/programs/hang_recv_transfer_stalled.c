/* EXPECT: hang  NP: 2  TIMEOUT: 0.25  RANKS: 0,1  SAYS: MPI_Wait */
/*
 * Checks: rank 0 sends rank 1 one message of 1 MiB and then waits for
 * rank 1's reply; the data of that message never arrives at rank 1, whose
 * MPI_Wait for it spins forever.
 *
 * Why it is an error: the job never ends. A wait for the data of a
 * matched message is no deadlock (deadlock_ok_slow_transfer.c is the
 * correct twin), and counts as progress only for a bounded processor time
 * (1 s plus 1 s a 16 MiB), since MPI spins in a transfer that never ends
 * (MPI-CorrBench's 4 GiB large_type_sendrec, with either MPI) as it does in
 * one that moves data. After that the hang watch reports both ranks' calls.
 *
 * How: the program defines PMPI_Request_get_status, which the checker's
 * wait loop calls to ask MPI about the receive, and has it compute and
 * answer "not yet" forever for that receive.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>

#define BYTES (1024 * 1024)
typedef int (*get_status_fn)(MPI_Request, int *, MPI_Status *);
static MPI_Request stalled = MPI_REQUEST_NULL;

int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status)
{
    if (stalled != MPI_REQUEST_NULL && req == stalled) {
        volatile unsigned long spin = 0;
        for (int i = 0; i < 200000; i++)
            spin++;
        *flag = 0;
        return MPI_SUCCESS;
    }
    get_status_fn real = (get_status_fn)dlsym(RTLD_NEXT, "PMPI_Request_get_status");
    return real ? real(req, flag, status) : MPI_ERR_INTERN;
}

int main(int argc, char **argv)
{
    int rank, reply = 0;
    char *buf = calloc(BYTES, 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send(buf, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&reply, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Request r;
        MPI_Irecv(buf, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &r);
        stalled = r;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Send(&reply, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
