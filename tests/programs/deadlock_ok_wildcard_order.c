/* EXPECT: OK  NP: 3 */
/*
 * Checks: a matching-order puzzle. Rank 0 posts, in this order,
 *   R1 = MPI_Irecv(MPI_ANY_SOURCE, tag 1), R2 = MPI_Irecv(source 1,
 *   MPI_ANY_TAG), R3 = MPI_Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG),
 * all of up to 4 MPI_INT, then joins an MPI_Barrier. After the barrier rank 1
 * sends A (3 ints, tag 2) and then B (1 int, tag 1); rank 2 sends C (2 ints,
 * tag 2). Rank 0 completes all three with MPI_Waitall.
 *
 * Why it is correct, and the only outcome: a message matches the first posted
 * receive it fits (MPI-3.1 sec. 3.5, order). R1 can take only a tag-1
 * message, i.e. B; A, sent before B, cannot be overtaken and fits R2 before
 * R3; so R1 = B, R2 = A, R3 = C in every interleaving. A model that lets R3
 * take A leaves R2 with B and R1 with nothing: a false deadlock. All types are
 * MPI_INT, so every matching type-checks. The statuses are checked.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, i, count, bad = 0, buf[3][4];
    int a[3] = {11, 12, 13}, b[1] = {21}, c[2] = {31, 32};
    int want_src[3] = {1, 1, 2}, want_tag[3] = {1, 2, 2}, want_count[3] = {1, 3, 2};
    int want_first[3] = {21, 11, 31};
    MPI_Request req[3];
    MPI_Status sts[3];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    if (rank == 0) {
        MPI_Irecv(buf[0], 4, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(buf[1], 4, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, &req[1]);
        MPI_Irecv(buf[2], 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req[2]);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 0) {
        MPI_Waitall(3, req, sts);
        for (i = 0; i < 3; i++) {
            MPI_Get_count(&sts[i], MPI_INT, &count);
            bad += sts[i].MPI_SOURCE != want_src[i] || sts[i].MPI_TAG != want_tag[i]
                || count != want_count[i] || buf[i][0] != want_first[i];
        }
        if (bad)
            printf("rank 0: %d receives got the wrong message\n", bad);
    } else if (rank == 1) {
        MPI_Send(a, 3, MPI_INT, 0, 2, MPI_COMM_WORLD);
        MPI_Send(b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Send(c, 2, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }

    MPI_Finalize();
    return 0;
}
