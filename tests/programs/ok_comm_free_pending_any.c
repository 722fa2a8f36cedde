/* EXPECT: OK  NP: 3 */
/*
 * Checks: receives still pending when their communicator is freed. All ranks
 * duplicate MPI_COMM_WORLD. On the duplicate rank 0 posts
 *   R0, R1 = MPI_Irecv(MPI_ANY_SOURCE, tag 1, 1 int) and
 *   R2 = MPI_Irecv(source 2, tag 3, 1 int),
 * behind the wildcard ones. Rank 1 sends its tag-1 message (value 101) at
 * once. Then all ranks call MPI_Barrier(MPI_COMM_WORLD); after it, rank 2
 * sleeps 100 ms (so that its messages come after rank 0 freed the
 * duplicate) and sends tag 1 (value 201), then tag 3 (value 203). Then all
 * ranks call MPI_Comm_free on the duplicate, then make a second duplicate
 * (which may reuse the freed one's handle) and call MPI_Barrier on it.
 * Rank 0 then completes R0-R2 with MPI_Waitall and checks the data, sources
 * and tags (R0 and R1 must hold one message from each of ranks 1 and 2, in
 * either order; R2 must hold 203). A wrong result aborts the job.
 *
 * Why it is correct: MPI_Comm_free only marks the communicator for
 * deallocation; pending operations that use it complete normally (MPI-3.1
 * sec. 6.4.3), and a request keeps working after the free. Rank 2's sends
 * come before its own MPI_Comm_free, on a valid communicator. Tag 3 fits
 * only R2, tag 1 only R0 and R1, and each of the two tag-1 messages takes
 * one of them. The collective calls (MPI_Comm_dup, MPI_Barrier,
 * MPI_Comm_free) are in the same order on every rank. The receives stay
 * bound to the freed communicator, never to the new one, even if MPI hands
 * out the same handle value again. A checker that holds the wildcard
 * receives back until their envelopes come must post them to MPI while the
 * handle is still valid (at the free); if it does not, they never complete
 * (false deadlock) or use a freed communicator (MPICH: MPI_ERR_COMM).
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static int rank;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rank %d: wrong result: %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int i, v, count, in[3] = {-1, -1, -1};
    MPI_Comm dup, dup2;
    MPI_Request req[3];
    MPI_Status st[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);

    if (rank == 0) {
        MPI_Irecv(&in[0], 1, MPI_INT, MPI_ANY_SOURCE, 1, dup, &req[0]);
        MPI_Irecv(&in[1], 1, MPI_INT, MPI_ANY_SOURCE, 1, dup, &req[1]);
        MPI_Irecv(&in[2], 1, MPI_INT, 2, 3, dup, &req[2]);
    } else if (rank == 1) {
        v = 101;
        MPI_Send(&v, 1, MPI_INT, 0, 1, dup);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
        usleep(100000);
        v = 201;
        MPI_Send(&v, 1, MPI_INT, 0, 1, dup);
        v = 203;
        MPI_Send(&v, 1, MPI_INT, 0, 3, dup);
    }
    MPI_Comm_free(&dup);
    expect(dup == MPI_COMM_NULL, "MPI_Comm_free did not set the handle to MPI_COMM_NULL");
    /* a new communicator, which may reuse the freed one's handle or memory */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup2);
    MPI_Barrier(dup2);

    if (rank == 0) {
        MPI_Waitall(3, req, st);
        for (i = 0; i < 3; i++) {
            MPI_Get_count(&st[i], MPI_INT, &count);
            expect(count == 1, "count of a receive");
            expect(req[i] == MPI_REQUEST_NULL, "request not freed by MPI_Waitall");
        }
        expect(st[0].MPI_TAG == 1 && st[1].MPI_TAG == 1 && st[2].MPI_TAG == 3,
               "tags of the receives");
        expect(st[0].MPI_SOURCE != st[1].MPI_SOURCE, "both wildcard receives got one sender");
        for (i = 0; i < 2; i++) {
            expect(st[i].MPI_SOURCE == 1 || st[i].MPI_SOURCE == 2, "source of a wildcard receive");
            expect(in[i] == 100 * st[i].MPI_SOURCE + 1, "data of a wildcard receive");
        }
        expect(st[2].MPI_SOURCE == 2 && in[2] == 203, "source 2, tag 3 receive");
    }

    MPI_Comm_free(&dup2);
    MPI_Finalize();
    return 0;
}
