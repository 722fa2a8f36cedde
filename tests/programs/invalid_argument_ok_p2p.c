/* EXPECT: OK  NP: 3 */
/*
 * Checks: point-to-point arguments that look odd but are valid; a checker must
 * not flag any of them (no finding expected).
 *
 *  - MPI_PROC_NULL as dest and as source (MPI-4.0 sec. 3.11): the call
 *    succeeds at once, a receive's status says source MPI_PROC_NULL, tag
 *    MPI_ANY_TAG, count 0. Used by MPI_Send, MPI_Recv, MPI_Sendrecv at the ends
 *    of a non-periodic chain, and MPI_Isend/MPI_Irecv.
 *  - MPI_ANY_SOURCE and MPI_ANY_TAG in MPI_Recv, MPI_Probe and MPI_Iprobe
 *    (sec. 3.2.4, 3.8.1): wildcards are what receives and probes accept.
 *  - tag == MPI_TAG_UB (queried attribute): the upper bound is inclusive
 *    (sec. 3.2.3, tags range from 0 to MPI_TAG_UB).
 *  - count 0 with a NULL buffer in a send and a receive: with no element
 *    nothing is read or written, so the address is not significant.
 *
 * Messages to rank 0 with wildcards come from distinct ranks with distinct
 * tags and are all received, so nothing is left over and no order is assumed.
 * (MPI_STATUSES_IGNORE is not used with MPI_Waitall: MPICH 4.0's mpi.h makes
 * gcc 12 warn about it, -Wstringop-overflow.)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, flag, i, value, count, left, right, sum;
    int *tag_ub_ptr, tag_ub;
    MPI_Status st, sts[2];
    MPI_Request reqs[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub_ptr, &flag);
    tag_ub = flag ? *tag_ub_ptr : 32767;   /* the standard guarantees >= 32767 */

    /* 1. MPI_PROC_NULL as dest and source. */
    value = rank;
    MPI_Send(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&value, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    if (st.MPI_SOURCE != MPI_PROC_NULL || st.MPI_TAG != MPI_ANY_TAG || count != 0) {
        fprintf(stderr, "rank %d: bad status from a receive from MPI_PROC_NULL\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Isend(&value, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&value, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, sts);

    /* Shift to the right along a non-periodic chain: the ends talk to
     * MPI_PROC_NULL, the usual way to avoid special cases. */
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    value = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 2, &value, 1, MPI_INT, left, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (value != (rank > 0 ? rank - 1 : -1)) {
        fprintf(stderr, "rank %d: chain shift got %d\n", rank, value);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* 2. Wildcards: every other rank sends its rank with tag 10+rank; rank 0
     * probes with MPI_ANY_SOURCE/MPI_ANY_TAG, then receives what it probed. */
    if (rank != 0) {
        MPI_Send(&rank, 1, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD);
    } else {
        sum = 0;
        for (i = 1; i < size; i++) {
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            MPI_Recv(&value, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (value != st.MPI_SOURCE || st.MPI_TAG != 10 + value) {
                fprintf(stderr, "rank 0: probe mismatch\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            sum += value;
        }
        if (sum != size * (size - 1) / 2) {
            fprintf(stderr, "rank 0: wrong sum %d\n", sum);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    /* The barriers keep the wildcard phases apart: a wildcard matches any
     * message, including one of a later phase. */
    MPI_Barrier(MPI_COMM_WORLD);

    /* Same with MPI_Iprobe polling and a receive with both wildcards. */
    if (rank != 0) {
        MPI_Send(&rank, 1, MPI_INT, 0, 20, MPI_COMM_WORLD);
    } else {
        for (i = 1; i < size; i++) {
            flag = 0;
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                           MPI_STATUS_IGNORE);
            MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG,
                     MPI_COMM_WORLD, &st);
            if (st.MPI_TAG != 20 || value != st.MPI_SOURCE) {
                fprintf(stderr, "rank 0: wildcard receive mismatch\n");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);

    /* 3. tag == MPI_TAG_UB, the largest valid tag. */
    if (rank == 1) {
        value = 1234;
        MPI_Send(&value, 1, MPI_INT, 0, tag_ub, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, 1, tag_ub, MPI_COMM_WORLD, &st);
        if (value != 1234 || st.MPI_TAG != tag_ub) {
            fprintf(stderr, "rank 0: tag_ub message wrong\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }

    /* 4. count 0 with a NULL buffer (blocking and nonblocking). */
    if (rank == 0) {
        MPI_Send(NULL, 0, MPI_INT, 1, 30, MPI_COMM_WORLD);
        MPI_Isend(NULL, 0, MPI_DOUBLE, 1, 31, MPI_COMM_WORLD, &reqs[0]);
        MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(NULL, 0, MPI_INT, 0, 30, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        MPI_Irecv(NULL, 0, MPI_DOUBLE, 0, 31, MPI_COMM_WORLD, &reqs[1]);
        MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
        if (count != 0) {
            fprintf(stderr, "rank 1: empty message has count %d\n", count);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("invalid_argument_ok_p2p: done\n");
    MPI_Finalize();
    return 0;
}
