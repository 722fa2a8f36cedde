/* EXPECT: OK  NP: 2 */
/*
 * Checks: completion calls that return an error code still complete (and
 * free) the requests they report on; no finding expected.
 *
 * A generalized request (MPI-4.0 sec. 13.2) stands for an operation the
 * application carries out itself, e.g. asynchronous I/O; its query function
 * reports the operation's failure through the status and its return code,
 * which MPI_Wait / MPI_Waitall pass back to the caller (MPI_ERR_IN_STATUS for
 * the arrays). With MPI_ERRORS_RETURN the program handles the error. The
 * request is nevertheless complete and deallocated: MPI sets the handle to
 * MPI_REQUEST_NULL (an array entry whose status says MPI_ERR_PENDING is still
 * active and is waited for again). Nothing is leaked.
 */
#include <mpi.h>
#include <stdio.h>

static int rank, fails, io_class;   /* the failure reported: MPI_ERR_IO */
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: check failed at line %d: %s\n", \
                                          rank, __LINE__, #c); fails++; } } while (0)

static int failed_query(void *extra, MPI_Status *st)
{
    (void)extra;
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    st->MPI_ERROR = io_class;
    return io_class;          /* the operation failed */
}

static int gfree(void *extra) { (void)extra; return MPI_SUCCESS; }
static int gcancel(void *extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    io_class = MPI_ERR_IO;
    /* errors of requests that belong to no communicator go to MPI_COMM_SELF's
     * handler (MPI-4.0 sec. 9.3); set both to be safe */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* MPI_Wait on a failed operation */
    MPI_Request r;
    MPI_Status st;
    MPI_Grequest_start(failed_query, gfree, gcancel, NULL, &r);
    MPI_Grequest_complete(r);
    int rc = MPI_Wait(&r, &st), cls;
    MPI_Error_class(rc, &cls);
    CHECK(cls == io_class);
    CHECK(r == MPI_REQUEST_NULL);

    /* MPI_Waitall on two failed operations */
    MPI_Request rs[2];
    MPI_Status sts[2];
    MPI_Grequest_start(failed_query, gfree, gcancel, NULL, &rs[0]);
    MPI_Grequest_start(failed_query, gfree, gcancel, NULL, &rs[1]);
    MPI_Grequest_complete(rs[0]);
    MPI_Grequest_complete(rs[1]);
    rc = MPI_Waitall(2, rs, sts);
    CHECK(rc == MPI_ERR_IN_STATUS);
    for (int i = 0; i < 2; i++) {
        if (rs[i] != MPI_REQUEST_NULL) {      /* MPI_ERR_PENDING: not completed yet */
            CHECK(sts[i].MPI_ERROR == MPI_ERR_PENDING);
            rc = MPI_Wait(&rs[i], &st);
            MPI_Error_class(rc, &cls);
            CHECK(cls == io_class && rs[i] == MPI_REQUEST_NULL);
        }
    }

    /* MPI_Test on a failed operation */
    MPI_Grequest_start(failed_query, gfree, gcancel, NULL, &r);
    MPI_Grequest_complete(r);
    int flag = 0;
    rc = MPI_Test(&r, &flag, &st);
    MPI_Error_class(rc, &cls);
    CHECK(flag && cls == io_class && r == MPI_REQUEST_NULL);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int total;
    MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        printf("ok_request_errors: %d checks failed\n", total);
    MPI_Finalize();
    return total != 0;
}
