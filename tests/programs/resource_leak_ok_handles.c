/* EXPECT: OK  NP: 2 */
/*
 * Checks: the twin of resource_leak_handles.c that frees everything it
 * creates; no finding expected.
 *
 * Created and freed: a communicator (MPI_Comm_split, MPI_Comm_dup), a datatype,
 * two groups (MPI_Comm_group, MPI_Group_incl), an op, an error handler (freed
 * while still attached to a communicator, which the standard allows: the
 * handler lives until the communicator no longer uses it, MPI-4.0 sec. 9.3.4),
 * and a window.
 * Never freed, and rightly so (freeing them would be the error):
 *  - predefined handles: MPI_COMM_WORLD, MPI_COMM_SELF, MPI_INT, MPI_SUM,
 *    MPI_ERRORS_RETURN, MPI_ERRORS_ARE_FATAL, MPI_GROUP_EMPTY, MPI_INFO_NULL;
 *  - the result of MPI_Comm_get_parent: MPI_COMM_NULL when the program was not
 *    spawned, as here (a real parent intercommunicator may be disconnected or
 *    freed, but the program is not obliged to);
 *  - MPI_COMM_NULL from MPI_Comm_split with MPI_UNDEFINED.
 * The window is made as in resource_leak_handles.c (MPI_Win_create, or
 * MPI_Win_allocate where Open MPI cannot serve MPI_Win_create), here over 4
 * ints, and each rank puts its rank into its right neighbour's window.
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
    int rank, size, in, out, gsize, zero = 0, empty_size;
    int window_mem[4] = {-1, -1, -1, -1};
    void *window_base = window_mem;
    int *wmem;
    int pair[2];
    MPI_Comm half, dup, parent, nobody;
    MPI_Datatype pair_type;
    MPI_Group world_group, first_group;
    MPI_Op max_op;
    MPI_Errhandler handler;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Comm_get_parent(&parent);           /* MPI_COMM_NULL here; not freed */
    if (parent != MPI_COMM_NULL)
        printf("rank %d: unexpectedly spawned\n", rank);

    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Barrier(half);
    MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &nobody); /* MPI_COMM_NULL */
    MPI_Comm_dup(MPI_COMM_SELF, &dup);
    MPI_Barrier(dup);

    MPI_Type_contiguous(2, MPI_INT, &pair_type);
    MPI_Type_commit(&pair_type);
    pair[0] = rank;
    pair[1] = -rank;
    MPI_Bcast(pair, 1, pair_type, 0, MPI_COMM_WORLD);

    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Group_size(world_group, &gsize);
    MPI_Group_incl(world_group, 1, &zero, &first_group);
    MPI_Group_size(MPI_GROUP_EMPTY, &empty_size);

    MPI_Op_create(my_max, 1, &max_op);
    in = rank;
    MPI_Allreduce(&in, &out, 1, MPI_INT, max_op, MPI_COMM_WORLD);
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    MPI_Comm_create_errhandler(my_errors, &handler);
    MPI_Comm_set_errhandler(dup, handler);
    MPI_Errhandler_free(&handler);          /* dup keeps using it until freed */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* predefined */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    win = make_window(&window_base, sizeof window_mem, MPI_COMM_WORLD);
    wmem = window_base;
    MPI_Win_fence(0, win);
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (wmem[0] != (rank + size - 1) % size) {
        fprintf(stderr, "rank %d: MPI_Put delivered %d\n", rank, wmem[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    if (rank == 0)
        printf("resource_leak_ok_handles: group size %d, empty %d, sum %d, pair %d %d\n",
               gsize, empty_size, out, pair[0], pair[1]);

    MPI_Win_free(&win);
    MPI_Op_free(&max_op);
    MPI_Group_free(&first_group);
    MPI_Group_free(&world_group);
    MPI_Type_free(&pair_type);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
