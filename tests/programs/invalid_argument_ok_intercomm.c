/* EXPECT: OK  NP: 3 */
/*
 * Checks: rank and root arguments on an intercommunicator, which follow other
 * rules than on an intracommunicator; no finding expected.
 *
 * MPI_COMM_WORLD is split into a low half (group A, the larger one when the
 * size is odd) and a high half (group B),
 * joined by MPI_Intercomm_create (MPI-4.0 sec. 7.6.2). Then:
 *  - MPI_Bcast from A to B (sec. 6.2.2 / 6.4): A's root passes MPI_ROOT, A's
 *    other ranks pass MPI_PROC_NULL, every rank of B passes the root's rank in A (a rank of the
 *    REMOTE group, which may be >= the size of B's local group when the groups
 *    differ in size). Then the same from B to A.
 *  - MPI_Send/MPI_Recv across the intercommunicator: dest and source are ranks
 *    of the remote group (sec. 7.6.1).
 *  - MPI_Gather into A's root: at MPI_ROOT only the receive arguments are
 *    significant, so the root passes sendbuf NULL, sendcount 0, sendtype
 *    MPI_DATATYPE_NULL, and the MPI_PROC_NULL ranks pass nothing at all.
 *  - MPI_Intercomm_create's peer_comm/remote_leader are only significant at
 *    the two leaders (all ranks pass them here, as usual).
 * The MPI_PROC_NULL ranks of a Bcast pass a real buffer although nothing is
 * sent or received there: MPICH 4.0 rejects NULL with count 1 at MPI_PROC_NULL
 * ("Null buffer pointer"), while the standard does not say whether that buffer
 * is significant. For MPI_Gather the standard is explicit enough (only the
 * root's receive arguments and group B's send arguments take part), and both
 * libraries accept NULL there.
 * With NP 3 the groups are A = {0,1} and B = {2}: B's ranks pass root 1 for
 * the Bcast from A, a valid rank of the remote group although B's own group
 * has a single rank (a checker comparing the root with the local size is
 * wrong). Any NP >= 2 works.
 * Everything created is freed.
 */
#include <mpi.h>
#include <stdio.h>

static void check(int ok, int rank, const char *what)
{
    if (!ok) {
        fprintf(stderr, "world rank %d: wrong result of %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int wrank, wsize, half, in_a, lrank, lsize, rsize, i, value, root;
    int gathered[16];
    MPI_Comm local, inter;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2 || wsize > 16)
        MPI_Abort(MPI_COMM_WORLD, 2);

    half = (wsize + 1) / 2;                 /* A = world ranks 0..half-1 */
    in_a = wrank < half;
    MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, wrank, &local);
    /* local leaders are world ranks 0 (A) and half (B) */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? half : 0, 99, &inter);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);

    /* Bcast A -> B, root is A's last rank. */
    if (in_a) {
        if (lrank == lsize - 1) {
            value = 777;
            MPI_Bcast(&value, 1, MPI_INT, MPI_ROOT, inter);
        } else {
            MPI_Bcast(&value, 1, MPI_INT, MPI_PROC_NULL, inter);
        }
    } else {
        value = 0;
        MPI_Bcast(&value, 1, MPI_INT, rsize - 1, inter);
        check(value == 777, wrank, "MPI_Bcast A->B");
    }

    /* Bcast B -> A, root is B's rank 0. */
    if (!in_a) {
        value = 555;
        if (lrank == 0)
            MPI_Bcast(&value, 1, MPI_INT, MPI_ROOT, inter);
        else
            MPI_Bcast(&value, 1, MPI_INT, MPI_PROC_NULL, inter);
    } else {
        value = 0;
        MPI_Bcast(&value, 1, MPI_INT, 0, inter);
        check(value == 555, wrank, "MPI_Bcast B->A");
    }

    /* Point to point across: A's rank i sends to B's rank i when it exists. */
    if (in_a) {
        if (lrank < rsize) {
            value = 1000 + lrank;
            MPI_Send(&value, 1, MPI_INT, lrank, 5, inter);
        }
    } else if (lrank < rsize) {
        MPI_Recv(&value, 1, MPI_INT, lrank, 5, inter, MPI_STATUS_IGNORE);
        check(value == 1000 + lrank, wrank, "intercommunicator send");
    }

    /* Gather from B into A's rank 0. */
    if (in_a) {
        if (lrank == 0) {
            for (i = 0; i < rsize; i++)
                gathered[i] = -1;
            MPI_Gather(NULL, 0, MPI_DATATYPE_NULL, gathered, 1, MPI_INT, MPI_ROOT, inter);
            for (i = 0; i < rsize; i++)
                check(gathered[i] == 2 * i, wrank, "intercommunicator MPI_Gather");
        } else {
            MPI_Gather(NULL, 0, MPI_DATATYPE_NULL, NULL, 0, MPI_DATATYPE_NULL,
                       MPI_PROC_NULL, inter);
        }
    } else {
        value = 2 * lrank;
        root = 0;
        MPI_Gather(&value, 1, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, inter);
    }

    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    if (wrank == 0)
        printf("invalid_argument_ok_intercomm: done\n");
    MPI_Finalize();
    return 0;
}
