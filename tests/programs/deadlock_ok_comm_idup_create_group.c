/* EXPECT: OK  NP: 4 */
/*
 * Checks: even ranks call MPI_Comm_create_group over all of
 * MPI_COMM_WORLD and then MPI_Comm_idup of MPI_COMM_WORLD; odd ranks the
 * other way round; then both communicators are used (the shape of MPICH's
 * comm/comm_create_group_idup).
 *
 * Why it is correct: MPI_Comm_idup does not wait for the other members,
 * and MPI_Comm_create_group is collective over the group only, so the two
 * orders meet (MPI-3.1 sec. 5.12, 6.4.2). The checker once made the new
 * communicator's shadow with a blocking MPI_Comm_split right after
 * MPI_Comm_create_group; Open MPI lets a context-id agreement go ahead
 * only when no pending one has a lower parent id, so on the odd ranks that
 * split waited for their idup of MPI_COMM_WORLD, which waited for the even
 * ranks, which waited in the same split: a hang.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0;
    MPI_Group world_group;
    MPI_Comm group_comm, idup_comm;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);

    if (rank % 2 == 0) {
        MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 0, &group_comm);
        MPI_Comm_idup(MPI_COMM_WORLD, &idup_comm, &req);
    } else {
        MPI_Comm_idup(MPI_COMM_WORLD, &idup_comm, &req);
        MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 0, &group_comm);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, idup_comm);
    MPI_Barrier(group_comm);

    MPI_Group_free(&world_group);
    MPI_Comm_free(&idup_comm);
    MPI_Comm_free(&group_comm);
    if (rank == 0)
        printf(sum == size * (size - 1) / 2 ? "No Errors\n" : "FAILED\n");
    MPI_Finalize();
    return sum != size * (size - 1) / 2;
}
