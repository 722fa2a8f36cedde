/* EXPECT: resource-leak  NP: 2 */
/*
 * Checks: handles created by the program and never freed before MPI_Finalize:
 *   a communicator from MPI_Comm_split, a committed datatype, a group from
 *   MPI_Comm_group, an op from MPI_Op_create, an error handler from
 *   MPI_Comm_create_errhandler and a window from MPI_Win_create (or from
 *   MPI_Win_allocate where Open MPI cannot serve MPI_Win_create, see
 *   make_window below).
 *
 * Why it is only a warning: the standard does not make it erroneous to call
 * MPI_Finalize with these objects alive (its rules on MPI_Finalize, MPI-3.1
 * sec. 8.7, ask that communication be complete; objects are freed with the
 * MPI_XXX_FREE calls, which MPI_Finalize does not make for the program). But
 * each is a leak that grows when the code runs in a loop or in a library, and
 * a window left open also skips the MPI_Win_free synchronisation. Each object
 * is used correctly otherwise, so resource-leak is the only class expected.
 *
 * The window has no memory (size 0): MPICH 4.0 over UCX aborts in
 * MPI_Finalize (an assertion in the UCX registration cache) when a window
 * over real memory is still alive, which would turn this warning-only test
 * into a crash.
 */
#include <mpi.h>
#include <stdio.h>

static void my_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int i;
    (void)type;
    for (i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

static void my_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

/* A window over `size` bytes at `base`, from MPI_Win_create. Open MPI 4.1 has
 * no one-sided component for MPI_Win_create when its shared-memory transport
 * runs without single-copy (btl_vader_single_copy_mechanism=none, which the
 * test harness sets for containers): the call then fails with MPI_ERR_WIN, and
 * MPI_Win_allocate (served by its osc/sm component) is used instead; *base then
 * points to the window memory. The error handler of MPI_COMM_WORLD is set to
 * return errors only around that attempt. */
static MPI_Win make_window(void **base, MPI_Aint size, MPI_Comm comm)
{
    MPI_Win win;
    int rc;

    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    rc = MPI_Win_create(*base, size, 1, MPI_INFO_NULL, comm, &win);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
    if (rc != MPI_SUCCESS)
        MPI_Win_allocate(size, 1, MPI_INFO_NULL, comm, base, &win);
    return win;
}

int main(int argc, char **argv)
{
    int rank, size, in, out, gsize;
    void *window_base = NULL;
    int pair[2];
    MPI_Comm half;                          /* LEAK: never MPI_Comm_free'd */
    MPI_Datatype pair_type;                 /* LEAK: never MPI_Type_free'd */
    MPI_Group world_group;                  /* LEAK: never MPI_Group_free'd */
    MPI_Op max_op;                          /* LEAK: never MPI_Op_free'd */
    MPI_Errhandler handler;                 /* LEAK: never MPI_Errhandler_free'd */
    MPI_Win win;                            /* LEAK: never MPI_Win_free'd */

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Barrier(half);

    MPI_Type_contiguous(2, MPI_INT, &pair_type);
    MPI_Type_commit(&pair_type);
    pair[0] = rank;
    pair[1] = -rank;
    MPI_Bcast(pair, 1, pair_type, 0, MPI_COMM_WORLD);

    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_size(world_group, &gsize);

    MPI_Op_create(my_max, 1, &max_op);
    in = rank;
    MPI_Allreduce(&in, &out, 1, MPI_INT, max_op, MPI_COMM_WORLD);

    MPI_Comm_create_errhandler(my_errors, &handler);

    win = make_window(&window_base, 0, MPI_COMM_WORLD);    /* no local memory */
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);

    if (rank == 0)
        printf("resource_leak_handles: group size %d, max %d, pair %d %d\n",
               gsize, out, pair[0], pair[1]);
    MPI_Finalize();                         /* six handles still allocated */
    return 0;
}
