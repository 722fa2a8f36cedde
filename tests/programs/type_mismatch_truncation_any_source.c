/* EXPECT: type-mismatch  NP: 2 */
/*
 * Checks: truncation through an MPI_ANY_SOURCE receive, and the error code
 * the application gets. With MPI_ERRORS_RETURN on MPI_COMM_WORLD, rank 1
 * sends 4 ints (tag 7) and rank 0 receives them with MPI_Irecv(
 * MPI_ANY_SOURCE, tag 7, 1 MPI_INT) + MPI_Wait (BUG: room for 1 int). Then
 * rank 1 sends 4 ints again (tag 8), received by a blocking
 * MPI_Recv(MPI_ANY_SOURCE, tag 8, 1 MPI_INT) (same bug). Each receive must
 * return an error of class MPI_ERR_TRUNCATE; if one returns MPI_SUCCESS or
 * another class, the program prints "TEST FAILED: ..." (which fails the test
 * in run_programs.py) and aborts.
 *
 * Why it is an error: a message longer than the receive buffer is an
 * overflow, erroneous, and the receive returns MPI_ERR_TRUNCATE (MPI-3.1
 * sec. 3.2.4); the checker's class is type-mismatch. With MPI_ERRORS_RETURN
 * the error code reaches the application (sec. 8.3), from the call that
 * completes the receive: MPI_Wait returns the error itself (only the
 * multiple-completion calls return MPI_ERR_IN_STATUS, sec. 3.7.5). A
 * checker that receives a wildcard-source message itself and completes the
 * application's request with success hides the error from the program.
 * Run plainly, the program completes with both errors seen.
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

static int rank;

static void expect_truncate(int rc, const char *call)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_TRUNCATE) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        fprintf(stderr, "TEST FAILED: rank %d: %s returned %d (class %d: %s), expected MPI_ERR_TRUNCATE\n",
                rank, call, rc, cls, msg);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int rc, in[4] = {-1, -1, -1, -1}, out[4] = {1, 2, 3, 4};
    MPI_Request req;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        /* BUG: the message has 4 ints, the receive room for 1 */
        rc = MPI_Irecv(in, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &req);
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "rank 0: MPI_Irecv failed\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        rc = MPI_Wait(&req, &st);
        expect_truncate(rc, "MPI_Wait of MPI_Irecv(MPI_ANY_SOURCE)");
        /* BUG again, blocking */
        rc = MPI_Recv(in, 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &st);
        expect_truncate(rc, "MPI_Recv(MPI_ANY_SOURCE)");
    } else if (rank == 1) {
        MPI_Send(out, 4, MPI_INT, 0, 7, MPI_COMM_WORLD);
        MPI_Send(out, 4, MPI_INT, 0, 8, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
