/* EXPECT: OK  NP: 3  MODE: strict  TIMEOUT: 600 */
/*
 * Checks: a rank the model of synchronous sends no longer follows says so
 * in every envelope, MPI_Bsend's too, and a blocking MPI_Probe ends the
 * following of its own rank (docs/design.md, "Sends let go without their
 * acknowledgment"). Rank 0 sends S to rank 1 (rank 1 computes: S is let
 * go), M to rank 2, then calls MPI_Barrier on a communicator of ranks 0
 * and 1. Rank 2 looks for M with MPI_Iprobe (which ends the model's
 * following of rank 2) and tells rank 1 what it found twice: by MPI_Bsend,
 * and by the tag of an MPI_Isend. Rank 1 computes, receives the first
 * answer, probes the second with MPI_Probe(MPI_ANY_TAG), and by them
 * either calls MPI_Barrier and then receives S, or receives S first.
 * (Found by a review that wrote programs against the model: either answer
 * alone was a false potential deadlock with the library of 3f9f250 on
 * both MPIs.)
 *
 * Why no finding: with synchronous sends M does not exist before rank 1
 * receives S, which it does only after the answers: rank 2 finds nothing,
 * and rank 1 receives S before the barrier. The program completes.
 */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, a = 1, x = 0, flag = 0, got = 0, bsz = 4096;
    void *bbuf;
    MPI_Comm sub;
    MPI_Request r;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &sub);
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&a, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
        MPI_Barrier(sub);
    } else if (rank == 2) {
        bbuf = malloc(bsz);
        MPI_Buffer_attach(bbuf, bsz);
        usleep(300000);
        for (int k = 0; k < 10 && !flag; k++) {
            MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                usleep(10000);
        }
        MPI_Bsend(&flag, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Isend(&flag, 1, MPI_INT, 1, 10 + flag, MPI_COMM_WORLD, &r);
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Buffer_detach(&bbuf, &bsz);
        free(bbuf);
    } else if (rank == 1) {
        usleep(300000);
        MPI_Recv(&got, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Probe(2, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        got |= st.MPI_TAG == 11;
        if (got) {
            MPI_Barrier(sub);
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&flag, 1, MPI_INT, 2, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&flag, 1, MPI_INT, 2, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Barrier(sub);
        }
    }
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    MPI_Finalize();
    return rank == 0 || x == 1 ? 0 : 1;
}
