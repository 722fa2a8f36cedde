/* EXPECT: OK  NP: 5 */
/*
 * Checks: a correct create/merge/use/free sequence of intercommunicators
 * between groups of unequal size, A = world {0, 1, 2} and B = world {3, 4};
 * no finding expected.
 *  - MPI_Intercomm_create with leaders that are not rank 0 of their group
 *    (A's rank 1, B's rank 0), a duplicate of MPI_COMM_WORLD as peer_comm
 *    and MPI_COMM_NULL / -1 at the other processes (significant only at
 *    the leaders, MPI-3.1 sec. 6.6.2);
 *  - a second MPI_Intercomm_create between the same groups, other leaders,
 *    another tag, MPI_COMM_WORLD as peer_comm;
 *  - MPI_Intercomm_merge with high = 1 in A and 0 in B (B's ranks first),
 *    and with high = 0 in both (either order, the same everywhere);
 *  - MPI_Comm_dup, MPI_Comm_split (with MPI_UNDEFINED: MPI_COMM_NULL) and
 *    MPI_Comm_create of an intercommunicator;
 *  - messages, MPI_Barrier and MPI_Allreduce across them; everything freed;
 *  - with MPI-4.0 (MPICH), MPI_Intercomm_create_from_groups between the same
 *    groups, leaders their last ranks, the same stringtag.
 */
#include <mpi.h>
#include <stdio.h>

static int wrank, fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "TEST FAILED: rank %d line %d: %s\n", \
                                          wrank, __LINE__, #c); fails++; } } while (0)

int main(int argc, char **argv)
{
    int wsize, lrank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize != 5)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int inA = wrank < 3;
    MPI_Comm local, peer, inter, inter2;
    MPI_Comm_dup(MPI_COMM_WORLD, &peer);
    MPI_Comm_split(MPI_COMM_WORLD, inA, wrank, &local);
    MPI_Comm_rank(local, &lrank);

    /* Leaders: A's rank 1 (world 1), B's rank 0 (world 3). */
    int lead = inA ? 1 : 0, is_lead = lrank == lead;
    MPI_Intercomm_create(local, lead, is_lead ? peer : MPI_COMM_NULL, is_lead ? (inA ? 3 : 1) : -1, 11,
                         &inter);
    int rsize;
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(rsize == (inA ? 2 : 3));

    /* Leaders: A's rank 2 (world 2), B's rank 1 (world 4). */
    lead = inA ? 2 : 1;
    is_lead = lrank == lead;
    MPI_Intercomm_create(local, lead, MPI_COMM_WORLD, is_lead ? (inA ? 4 : 2) : -1, 12, &inter2);

    /* Messages: A's rank 0 sends to B's rank 1 on the second one. */
    int v = -1;
    if (inA && lrank == 0) {
        v = 77;
        MPI_Send(&v, 1, MPI_INT, 1, 3, inter2);
    } else if (!inA && lrank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 3, inter2, MPI_STATUS_IGNORE);
        CHECK(v == 77);
    }
    MPI_Barrier(inter);

    /* B first: A passes high = 1. */
    MPI_Comm merged, merged0;
    MPI_Intercomm_merge(inter, inA, &merged);
    int mrank, sum = 0, one = 1;
    MPI_Comm_rank(merged, &mrank);
    CHECK(inA ? mrank == 2 + wrank : mrank == wrank - 3);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged);
    CHECK(sum == 5);
    MPI_Intercomm_merge(inter2, 0, &merged0);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged0);
    CHECK(sum == 5);

    /* Communicators made from an intercommunicator. */
    MPI_Comm dup, split, created;
    MPI_Comm_dup(inter, &dup);
    MPI_Barrier(dup);
    /* Rank 1 of each group left out (rank 0: intercomm_ok_split_leader_out.c). */
    MPI_Comm_split(inter, lrank == 1 ? MPI_UNDEFINED : 0, wrank, &split);
    CHECK((lrank == 1) == (split == MPI_COMM_NULL));
    if (split != MPI_COMM_NULL) {
        int rs = 0;
        MPI_Comm_remote_size(split, &rs);
        CHECK(rs == (inA ? 1 : 2));
        MPI_Barrier(split);
        MPI_Comm_free(&split);
    }
    MPI_Group lg, sub;
    MPI_Comm_group(inter, &lg);
    int first2[2] = {0, 1};
    MPI_Group_incl(lg, 2, first2, &sub);     /* each group keeps its first two */
    MPI_Comm_create(inter, sub, &created);
    CHECK((created != MPI_COMM_NULL) == (lrank < 2));
    if (created != MPI_COMM_NULL) {
        MPI_Comm_remote_size(created, &rsize);
        CHECK(rsize == 2);
        MPI_Comm_free(&created);
    }
    MPI_Group_free(&sub);
    MPI_Group_free(&lg);

#if MPI_VERSION >= 4
    {
        MPI_Group world, ga, gb;
        MPI_Comm fromg;
        int ra[3] = {0, 1, 2}, rb[2] = {3, 4};
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, 3, ra, &ga);
        MPI_Group_incl(world, 2, rb, &gb);
        MPI_Intercomm_create_from_groups(inA ? ga : gb, inA ? 2 : 1, inA ? gb : ga, inA ? 1 : 2, "pair",
                                         MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &fromg);
        MPI_Comm_remote_size(fromg, &rsize);
        CHECK(rsize == (inA ? 2 : 3));
        MPI_Barrier(fromg);
        MPI_Comm_free(&fromg);
        MPI_Group_free(&ga);
        MPI_Group_free(&gb);
        MPI_Group_free(&world);
    }
#endif

    MPI_Comm_free(&dup);
    MPI_Comm_free(&merged0);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter2);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Comm_free(&peer);
    MPI_Finalize();
    return fails != 0;
}
