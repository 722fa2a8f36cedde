/* EXPECT: OK  NP: 4 */
/*
 * Checks: intercommunicator collectives between {0, 1} and {2, 3}: MPI_Bcast
 * from each side in turn (MPI_ROOT at the root, MPI_PROC_NULL beside it, the
 * root's rank on the other side), MPI_Allreduce, MPI_Allgather where group
 * A sends 1 int and group B 2 ints (allowed: each group's part only has to
 * match what the other group receives), MPI_Barrier, MPI_Intercomm_merge and
 * an MPI_Allreduce on the merged communicator. Results are checked.
 *
 * Why it is correct: MPI-3.1 sec. 5.2.2 and 5.4, 5.7, 5.9.6 for
 * intercommunicators; sec. 6.6.2 for the merge.
 */
#include <mpi.h>
#include <stdio.h>

static int rank;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "TEST FAILED: rank %d: %s\n", rank, #c); \
    MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

int main(int argc, char **argv)
{
    MPI_Comm half, inter, merged;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int a = rank < 2;
    MPI_Comm_split(MPI_COMM_WORLD, a, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, a ? 2 : 0, 7, &inter);
    int lr;
    MPI_Comm_rank(half, &lr);
    for (int side = 0; side < 2; side++) {
        int root_group = side == 0 ? a : !a, v = 0;
        int root = root_group ? (lr == 1 ? MPI_ROOT : MPI_PROC_NULL) : 1;
        if (root == MPI_ROOT) v = 77 + side;
        MPI_Bcast(&v, 1, MPI_INT, root, inter);
        if (!root_group) CHECK(v == 77 + side);
    }
    int s = rank, sum = 0;
    MPI_Allreduce(&s, &sum, 1, MPI_INT, MPI_SUM, inter);
    CHECK(sum == (a ? 2 + 3 : 0 + 1));
    int send[2] = {rank, rank}, recv[4] = {-1, -1, -1, -1};
    if (a) MPI_Allgather(send, 1, MPI_INT, recv, 2, MPI_INT, inter);
    else MPI_Allgather(send, 2, MPI_INT, recv, 1, MPI_INT, inter);
    if (a) CHECK(recv[0] == 2 && recv[2] == 3);
    else CHECK(recv[0] == 0 && recv[1] == 1);
    MPI_Barrier(inter);
    MPI_Intercomm_merge(inter, !a, &merged);
    int m = 1, mo = 0;
    MPI_Allreduce(&m, &mo, 1, MPI_INT, MPI_SUM, merged);
    CHECK(mo == 4);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
