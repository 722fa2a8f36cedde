/* EXPECT: OK  NP: 2  TIMEOUT: 0.25 */
/*
 * Checks: rank 0 sends rank 1 one message of 24 MiB and then waits for
 * rank 1's reply; rank 1's MPI_Wait for that message's data lasts 3 s
 * (--timeout is 0.25 s, --hang-timeout 1.5 s).
 *
 * Why it is correct: the message was matched (its envelope compared, its
 * receive posted), so MPI completes it without another call of either
 * rank. Rank 1 waits for data in transit, not for rank 0: there is no
 * cycle. A huge or finely typed message does this for real (MPICH unpacks
 * 64 MiB of 1-byte vector elements in about a second here; MPI-CorrBench's
 * large_type_sendrec sends 4 GiB), and the checker called it a deadlock
 * ("rank 0 waits for rank 1; rank 1 waits for rank 0"); with the deadlock
 * fixed, the hang watch called it a hang. A wait that receives matched
 * messages now counts its thread's processor time as progress, for 1 s
 * plus 1 s a 16 MiB (2.5 s here). No finding expected.
 *
 * How: the program defines PMPI_Request_get_status, which the checker's
 * wait loop calls to ask MPI about the receive, and has it compute for 3 s
 * (MPI unpacking) before it lets MPI answer: a long transfer on any MPI,
 * at a known time, with little memory.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* hang_recv_transfer_stalled.c includes this file with its own. */
#ifndef SLOW_S
#define SLOW_S 3.0                  /* rank 1's receive lasts that long */
#define BYTES (24 * 1024 * 1024)
#endif
typedef int (*get_status_fn)(MPI_Request, int *, MPI_Status *);
static MPI_Request slow_req = MPI_REQUEST_NULL;
static double slow_until;
static int not_yet;     /* answers held back: the test is void without them */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *status)
{
    if (slow_req != MPI_REQUEST_NULL && req == slow_req && now() < slow_until) {
        volatile unsigned long spin = 0;
        for (int i = 0; i < 200000; i++)
            spin++;
        not_yet++;
        *flag = 0;
        return MPI_SUCCESS;
    }
    get_status_fn real = (get_status_fn)dlsym(RTLD_NEXT, "PMPI_Request_get_status");
    return real ? real(req, flag, status) : MPI_ERR_INTERN;
}

int main(int argc, char **argv)
{
    int rank, reply = 7;
    char *buf = malloc(BYTES);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (int i = 0; i < BYTES; i++)
            buf[i] = (char)i;
        MPI_Send(buf, BYTES, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&reply, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (reply != 8)
            printf("TEST FAILED: rank 0 got reply %d\n", reply);
    } else if (rank == 1) {
        MPI_Request r;
        MPI_Irecv(buf, BYTES, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &r);
        slow_until = now() + SLOW_S;
        slow_req = r;
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        slow_req = MPI_REQUEST_NULL;
        if (buf[1] != 1 || buf[BYTES - 1] != (char)(BYTES - 1))
            printf("TEST FAILED: rank 1 got %d ... %d\n", buf[1], buf[BYTES - 1]);
        if (not_yet == 0)
            printf("TEST FAILED: the wait never asked MPI about the receive through MPI_Request_get_status\n");
        reply = 8;
        MPI_Send(&reply, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
